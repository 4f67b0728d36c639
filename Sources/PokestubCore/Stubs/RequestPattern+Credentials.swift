/// A request pattern's `cookies` and `basicAuthCredentials`: what a request's `Cookie` and `Authorization`
/// fields must carry.
extension RequestPattern {
    /// The request pattern fields this file reads.
    static let credentialFieldNames = ["cookies", "basicAuthCredentials"]

    /// Whether the request passes the cookie and basic-auth tests.
    ///
    /// A cookie passes when any value of the cookies with its name passes. A cookie the request lacks passes
    /// only `{"absent": true}`: WireMock 2.35 (checked against its jar) answers a missing cookie with no match
    /// for every other matcher, `doesNotMatch`, `doesNotContain` and `anything` included, unlike a missing header.
    func matchesCredentials(_ request: HTTPRequest) -> Bool {
        if !cookies.isEmpty {
            let sent = request.cookies
            for (name, pattern) in cookies {
                let values = sent.filter { $0.name.hasSameUTF8(as: name) }.map(\.value)
                guard RequestPattern.cookiePasses(pattern, values) else { return false }
            }
        }
        if let basicAuthCredentials {
            let pattern = basicAuthCredentials.headerPattern
            guard request.headers.values(for: "Authorization").contains(where: { pattern.matches($0) }) else {
                return false
            }
        }
        return true
    }

    private static func cookiePasses(_ pattern: StringValuePattern, _ values: [String]) -> Bool {
        values.isEmpty ? pattern == .absent(true) : values.contains { pattern.matches($0) }
    }

    /// The near-miss differences of the cookie and basic-auth tests, each with weight 1 as a header's:
    /// `cookie session: expected equalTo "abc", got "xyz"` and
    /// `basicAuthCredentials: expected equalTo "Basic dTpw" (case-insensitive), got "Basic dTp4"`.
    ///
    /// - Parameter record: Adds one field's comparison to the result (field, expected, actual, distance, weight).
    func evaluateCredentials(
        _ request: HTTPRequest, record: (String, String, String?, Double, Double) -> Void
    ) {
        if !cookies.isEmpty {
            let sent = request.cookies
            for (name, pattern) in cookies.sorted(by: { $0.key < $1.key }) {
                let values = sent.filter { $0.name.hasSameUTF8(as: name) }.map(\.value)
                let distance =
                    RequestPattern.cookiePasses(pattern, values)
                    ? 0 : values.isEmpty ? 1 : values.map { pattern.distance($0) }.min() ?? 1
                record(
                    "cookie \(name)", pattern.summary, values.isEmpty ? nil : values.joined(separator: ", "),
                    distance, 1)
            }
        }
        if let basicAuthCredentials {
            let pattern = basicAuthCredentials.headerPattern
            let values = request.headers.values(for: "Authorization")
            let distance = values.isEmpty ? 1 : values.map { pattern.distance($0) }.min() ?? 1
            record(
                "basicAuthCredentials", pattern.summary, values.isEmpty ? nil : values.joined(separator: ", "),
                distance, 1)
        }
    }

    /// Reads `cookies` (names to string value patterns, as `headers`) and `basicAuthCredentials`.
    ///
    /// - Throws: ``StubDefinitionError`` naming the field.
    mutating func readCredentials(from object: inout StrictObject) throws(StubDefinitionError) {
        if let members = try object.object("cookies") {
            for (name, value) in members {
                do { cookies[name] = try StringValuePattern(json: value) } catch {
                    throw error.nested(under: name).nested(under: "cookies")
                }
            }
        }
        if let value = object.take("basicAuthCredentials") {
            do { basicAuthCredentials = try BasicAuthCredentials(json: value) } catch {
                throw error.nested(under: "basicAuthCredentials")
            }
        }
    }

    /// Adds `cookies` and `basicAuthCredentials` to a pattern's JSON members, as WireMock writes them.
    func addCredentials(to members: inout [String: JSONValue]) {
        if !cookies.isEmpty { members["cookies"] = .object(cookies.mapValues(\.json)) }
        if let basicAuthCredentials { members["basicAuthCredentials"] = basicAuthCredentials.json }
    }
}
