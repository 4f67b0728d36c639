/// Which requests a stub answers: WireMock's request pattern.
///
/// In JSON: `{"method": "GET", "urlPath": "/api/v2/pokemon/", "queryParameters": {"limit": {"equalTo": "20"}},
/// "headers": {"Accept": {"contains": "json"}}, "bodyPatterns": [{"equalToJson": {...}}]}`.
/// Every field is optional; an empty pattern matches every request.
package struct RequestPattern: Sendable, Hashable {
    /// The method, or `nil` for any (`"ANY"` in JSON).
    package var method: String?
    /// The URL test, or `nil` for any URL.
    package var url: URLPattern?
    /// Query parameter tests by parameter name (names compare exactly; a string value pattern passes a repeated
    /// parameter when any of its values passes, `hasExactly` and `includes` test them together).
    package var queryParameters: [String: MultiValuePattern]
    /// Header tests by field name (names compare case-insensitively, RFC 9110 §5.1; repeated fields as query
    /// parameters).
    package var headers: [String: MultiValuePattern]
    /// Body tests; all must pass.
    package var bodyPatterns: [StringValuePattern]
    /// Cookie tests by cookie name (names compare exactly; see ``HTTPRequest/cookies``).
    package var cookies: [String: StringValuePattern] = [:]
    /// The user name and password the `Authorization: Basic` field must carry, or `nil`.
    package var basicAuthCredentials: BasicAuthCredentials?
    /// Tests on the parts of a multipart body (``MultipartPattern``); all must pass.
    package var multipartPatterns: [MultipartPattern] = []

    /// Creates a pattern.
    package init(
        method: String? = nil, url: URLPattern? = nil, queryParameters: [String: MultiValuePattern] = [:],
        headers: [String: MultiValuePattern] = [:], bodyPatterns: [StringValuePattern] = []
    ) {
        self.method = method
        self.url = url
        self.queryParameters = queryParameters
        self.headers = headers
        self.bodyPatterns = bodyPatterns
    }

    /// The fields a request pattern may have.
    package static let fieldNames =
        ["method"] + URLPattern.fieldNames + ["queryParameters", "headers", "bodyPatterns", "multipartPatterns"]
        + credentialFieldNames

    /// Whether the request passes every test. The fast path: stops at the first failing field.
    package func matches(_ request: HTTPRequest) -> Bool {
        if let method, method != request.method { return false }
        if let url, !url.matches(request) { return false }
        for (name, pattern) in queryParameters
        where !pattern.matches(request.queryParameters, named: name, exactName: true) {
            return false
        }
        for (name, pattern) in headers where !pattern.matches(request.headers.fields, named: name, exactName: false) {
            return false
        }
        if !bodyPatterns.isEmpty {
            let text = request.bodyText ?? ""
            for pattern in bodyPatterns where !pattern.matches(text) { return false }
        }
        if !cookies.isEmpty || basicAuthCredentials != nil, !matchesCredentials(request) { return false }
        if !multipartPatterns.isEmpty, !matchesMultipart(request) { return false }
        return true
    }

    /// How many of the query parameter tests the request fails: a cheap tie-breaker among stubs at the same
    /// path when choosing which to compare in full for near misses.
    package func failedQueryParameters(_ request: HTTPRequest) -> Int {
        queryParameters.reduce(0) { failed, entry in
            failed + (entry.value.matches(request.queryParameters, named: entry.key, exactName: true) ? 0 : 1)
        }
    }

    /// Compares the request with every field and reports each difference: the basis of near misses.
    ///
    /// The distance is the weighted mean of the fields' distances, with WireMock's weights: the URL 10, the
    /// method 3, and each query parameter, header and body pattern 1. A stub whose URL is right but whose
    /// query differs is therefore closer than one a few characters off in the path.
    package func evaluate(_ request: HTTPRequest) -> MatchResult {
        var differences: [MatchResult.Difference] = []
        var weightedDistance = 0.0
        var totalWeight = 0.0
        func record(
            _ field: String, expected: String, actual: String?, distance: Double, weight: Double,
            detail: @autoclosure () -> String? = nil
        ) {
            totalWeight += weight
            weightedDistance += distance * weight
            if distance > 0 {
                differences.append(.init(field: field, expected: expected, actual: actual, detail: detail()))
            }
        }
        if let method {
            record(
                "method", expected: method, actual: request.method, distance: method == request.method ? 0 : 1,
                weight: 3)
        }
        if let url {
            let field = url.field
            // The forms compared, so the report shows the exact difference (`%26` against `&`).
            let actual: String
            switch url {
            case .url: actual = request.normalizedURL
            case .urlPath, .urlPathTemplate: actual = request.normalizedPath
            case .urlPattern: actual = request.decodedURL
            case .urlPathPattern: actual = request.path
            }
            record(field.name, expected: field.value, actual: actual, distance: url.distance(request), weight: 10)
        }
        for (name, pattern) in queryParameters.sorted(by: { $0.key < $1.key }) {
            let values = request.queryValues(name)
            record(
                "query parameter \(name)", expected: pattern.summary,
                actual: values.isEmpty ? nil : values.joined(separator: ", "), distance: pattern.distance(values),
                weight: 1)
        }
        for (name, pattern) in headers.sorted(by: { $0.key < $1.key }) {
            let values = request.headers.values(for: name)
            record(
                "header \(name)", expected: pattern.summary,
                actual: values.isEmpty ? nil : values.joined(separator: ", "), distance: pattern.distance(values),
                weight: 1)
        }
        if !bodyPatterns.isEmpty {
            // The same text as `matches` tests; the placeholder is only what the report shows.
            let text = request.bodyText ?? ""
            let shown = request.bodyText.map { String($0.prefix(200)) } ?? "<\(request.body.count) bytes, not UTF-8>"
            for pattern in bodyPatterns {
                record(
                    "body", expected: pattern.summary, actual: shown, distance: pattern.distance(text), weight: 1,
                    detail: pattern.mismatchDetail(text))
            }
        }
        evaluateCredentials(request) { record($0, expected: $1, actual: $2, distance: $3, weight: $4) }
        if !multipartPatterns.isEmpty {
            let (distance, difference) = evaluateMultipart(request)
            record(
                "multipart", expected: difference.expected, actual: difference.actual, distance: distance, weight: 1,
                detail: difference.detail)
        }
        let distance = totalWeight == 0 ? 0 : weightedDistance / totalWeight
        return MatchResult(distance: distance, differences: differences)
    }
}

/// How a request compares with a request pattern.
package struct MatchResult: Sendable, Hashable {
    /// 0 when every field passes, up to 1 when nothing does. Near misses are the stubs with the least.
    package var distance: Double
    /// The fields that did not pass, in the order method, URL, query, headers, body, cookies, basic auth.
    package var differences: [Difference]

    /// Whether every field passed.
    package var isMatch: Bool { differences.isEmpty }

    /// One field that did not pass.
    package struct Difference: Sendable, Hashable {
        /// The field, e.g. `method`, `urlPath`, `query parameter limit`, `header Accept`, `body`,
        /// `cookie session`, `basicAuthCredentials`.
        package var field: String
        /// What the stub expects, e.g. `GET` or `equalTo "20"`.
        package var expected: String
        /// What the request had, or `nil` when absent.
        package var actual: String?
        /// Why it differs, when the pattern can say more than its summary (the first XML difference).
        package var detail: String?

        /// Creates a difference.
        package init(field: String, expected: String, actual: String?, detail: String? = nil) {
            self.field = field
            self.expected = expected
            self.actual = actual
            self.detail = detail
        }
    }
}
