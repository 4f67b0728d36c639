import Foundation

/// A request as the server received it: what stubs match against and what the request journal keeps.
package struct HTTPRequest: Sendable, Hashable {
    /// The method as sent, e.g. `GET` (methods are case-sensitive, RFC 9110 §9.1).
    package var method: String
    /// The request target exactly as received: raw path and query, still percent-encoded.
    package var rawURL: String
    /// The header fields in the order received.
    package var headers: HTTPHeaders
    /// The body bytes (empty when there was none).
    package var body: Data
    /// The peer address, e.g. `127.0.0.1`, when known.
    package var clientAddress: String?

    /// The path, percent-decoded once (`%2F` stays encoded so segments keep their boundaries).
    package let path: String
    /// The raw path, still percent-encoded.
    package let rawPath: String
    /// The path in its RFC 3986 §6.2.2 normal form (``URINormalForm``): what `urlPath`, `url` and
    /// `urlPathTemplate` compare, byte for byte. Made once with the request, since matching reads it several
    /// times: a path with no `%` and only characters a URI holds raw (every shipped stub's) is its own normal
    /// form, found in one pass over its bytes.
    package let normalizedPath: String
    /// The raw query string after `?`, or `nil` when the target has no `?`.
    package let rawQuery: String?
    /// Query parameters in order, names and values percent-decoded once with `+` read as a space
    /// (the `application/x-www-form-urlencoded` rule of the WHATWG URL standard, which WireMock follows).
    package let queryParameters: [(name: String, value: String)]

    /// Creates a request and parses its target.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - rawURL: The request target as received (`/api/v2/pokemon/?offset=20&limit=20`). An absolute
    ///     form (`http://host/path`) is reduced to its path and query.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    ///   - clientAddress: The peer address, when known.
    package init(
        method: String, rawURL: String, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(),
        clientAddress: String? = nil
    ) {
        self.method = method
        self.rawURL = rawURL
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
        if let origin = HTTPRequest.originForm(rawURL) {
            (rawPath, rawQuery, queryParameters) = origin
            path = PercentDecoding.decode(rawPath, keepingEncodedSlash: true)
            normalizedPath = URINormalForm.normalize(rawPath)
            return
        }
        var target = Substring(rawURL)
        // Searches run on UTF-8 bytes and skip Foundation: this runs for every request.
        if let fragment = target.firstIndex(ofASCII: UInt8(ascii: "#")) { target = target[..<fragment] }
        var isAbsoluteForm = false
        if target.utf8.first != UInt8(ascii: "/"), let scheme = target.range(of: "://"),
            HTTPRequest.isScheme(target[..<scheme.lowerBound])
        {
            isAbsoluteForm = true
            let afterAuthority = target[scheme.upperBound...]
            target = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterAuthority[$0...] } ?? "/"
        }
        if let question = target.firstIndex(ofASCII: UInt8(ascii: "?")) {
            // An absolute form without a path (`http://host?x=1`) has the path `/` (RFC 9110 §4.2.3).
            rawPath = question == target.startIndex && isAbsoluteForm ? "/" : String(target[..<question])
            let query = target[target.index(after: question)...]
            rawQuery = String(query)
            queryParameters = HTTPRequest.parseQuery(query)
        } else {
            rawPath = String(target)
            rawQuery = nil
            queryParameters = []
        }
        path = PercentDecoding.decode(rawPath, keepingEncodedSlash: true)
        normalizedPath = URINormalForm.normalize(rawPath)
    }

    /// Every value of the query parameter `name` (names compare exactly, as WireMock does).
    package func queryValues(_ name: String) -> [String] {
        queryParameters.filter { $0.name.hasSameUTF8(as: name) }.map(\.value)
    }

    /// The body as UTF-8 text, or `nil` when it is not valid UTF-8.
    package var bodyText: String? {
        String(data: body, encoding: .utf8)
    }

    /// The path and query in their RFC 3986 §6.2.2 normal form (``URINormalForm``): what `url` matchers
    /// compare. An empty query (`/a?`) counts as none, as in WireMock.
    package var normalizedURL: String {
        guard let rawQuery, !rawQuery.isEmpty else { return normalizedPath }
        return "\(normalizedPath)?\(URINormalForm.normalize(rawQuery))"
    }

    /// The path and query, path decoded once and query kept as received: what `urlPattern` regexes see first.
    /// An empty query (`/a?`) counts as none, as in WireMock.
    package var decodedURL: String {
        guard let rawQuery, !rawQuery.isEmpty else { return path }
        return "\(path)?\(rawQuery)"
    }

    /// The raw path and query, without a fragment: the URL as received, for regexes written encoded.
    package var rawTarget: String {
        guard let rawQuery, !rawQuery.isEmpty else { return rawPath }
        return "\(rawPath)?\(rawQuery)"
    }

    /// The raw path, raw query and query parameters of a target in origin form (`/path?query#fragment`, RFC
    /// 9112 §3.2.1, what clients send), read by byte offsets in the target's UTF-8 in one pass, as the general
    /// reading in ``init(method:rawURL:headers:body:clientAddress:)`` reads them; `nil` for a target that does
    /// not start with `/` (an absolute form), which that reading takes. A name or value with nothing to decode
    /// (no `%`, no `+`) is its bytes as they are; a pair with something to decode goes through
    /// ``parseQuery(_:)``.
    static func originForm(
        _ rawURL: String
    ) -> (rawPath: String, rawQuery: String?, parameters: [(name: String, value: String)])? {
        var target = rawURL
        return target.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return nil }
            func text(_ start: Int, _ end: Int) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            }
            var end = bytes.count
            var question = -1
            for index in 0..<bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    end = index
                    break
                }
                if bytes[index] == UInt8(ascii: "?") && question < 0 { question = index }
            }
            guard question >= 0 else { return (text(0, end), nil, []) }
            var parameters: [(name: String, value: String)] = []
            var start = question + 1
            while start < end {
                var stop = start
                var equals = -1
                var needsDecoding = false
                while stop < end && bytes[stop] != UInt8(ascii: "&") {
                    switch bytes[stop] {
                    case UInt8(ascii: "="): if equals < 0 { equals = stop }
                    case UInt8(ascii: "%"), UInt8(ascii: "+"): needsDecoding = true
                    default: break
                    }
                    stop += 1
                }
                if needsDecoding {
                    parameters += parseQuery(Substring(text(start, stop)))
                } else if equals >= 0 {
                    parameters.append((name: text(start, equals), value: text(equals + 1, stop)))
                } else if stop > start {
                    parameters.append((name: text(start, stop), value: ""))
                }
                start = stop + 1
            }
            return (text(0, question), text(question + 1, end), parameters)
        }
    }

    /// Whether text is a URI scheme: a letter, then letters, digits, `+`, `-` or `.` (RFC 3986 §3.1).
    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// Splits a query at `&` and each pair at its first `=`, decoding names and values once. Runs on the
    /// UTF-8 bytes: `&` and `=` are ASCII, so every cut falls on a scalar boundary (this runs for every
    /// request; splitting by `Character` would walk grapheme clusters).
    static func parseQuery(_ query: Substring) -> [(name: String, value: String)] {
        let utf8 = query.utf8
        var parameters: [(name: String, value: String)] = []
        var start = utf8.startIndex
        while start != utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            if start != end {
                let pair = query[start..<end]
                if let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) {
                    parameters.append(
                        (
                            name: PercentDecoding.decode(pair[..<equals], plusAsSpace: true),
                            value: PercentDecoding.decode(pair[pair.utf8.index(after: equals)...], plusAsSpace: true)
                        ))
                } else {
                    parameters.append((name: PercentDecoding.decode(pair, plusAsSpace: true), value: ""))
                }
            }
            start = end == utf8.endIndex ? end : utf8.index(after: end)
        }
        return parameters
    }

    package static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.rawURL == rhs.rawURL && lhs.headers == rhs.headers && lhs.body == rhs.body
            && lhs.clientAddress == rhs.clientAddress
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(rawURL)
        hasher.combine(body)
    }
}
