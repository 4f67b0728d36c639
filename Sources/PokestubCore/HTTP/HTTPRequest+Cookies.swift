extension HTTPRequest {
    /// The cookies the request carries, in order: every `Cookie` field split into its `name=value` pairs.
    ///
    /// RFC 6265 §5.4 has user agents send `name=value` pairs joined by `"; "`; this reads them leniently, as
    /// WireMock 2.35 (Jetty's cookie parser) does, checked against its jar: pairs are split at `;` with the
    /// spaces and tabs around a name and a value dropped, a value in double quotes (`cookie-value` of RFC 6265
    /// §4.1.1) loses them, the first `=` ends the name (`s=a=b` is `s` with the value `a=b`), a pair without `=`
    /// is skipped, and several `Cookie` fields are read one after the other. Names compare exactly.
    package var cookies: [(name: String, value: String)] {
        var cookies: [(name: String, value: String)] = []
        for line in headers.values(for: "Cookie") {
            for pair in line.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = HTTPRequest.trimmed(pair[..<equals])
                guard !name.isEmpty else { continue }
                var value = HTTPRequest.trimmed(pair[pair.index(after: equals)...])
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                }
                cookies.append((String(name), String(value)))
            }
        }
        return cookies
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return text[first...last]
    }
}
