/// WireMock 2.35 features pokestub does not have, by the name a mapping uses for them, so a refusal says the
/// mapping is valid WireMock and names the feature, rather than calling it an unknown field.
///
/// Each was checked against WireMock 2.35's jar, which accepts it. A name listed here that pokestub comes to
/// support is read before it could be refused, so the list only ever names what is missing.
enum WireMockFeatures {
    /// Fields of a stub mapping, request pattern or response definition, with what they do.
    static let fields: [String: String] = [
        "host": "request matching on the Host (request.host)",
        "scheme": "request matching on the scheme (request.scheme)",
        "port": "request matching on the port (request.port)",
        "customMatcher": "custom matcher extensions (request.customMatcher)",
        "multipartPatterns": "multipart request matching (request.multipartPatterns)",
        "delayDistribution": "random delays (response.delayDistribution)",
        "chunkedDribbleDelay": "dribbled, chunked answers (response.chunkedDribbleDelay)",
    ]

    /// String value matchers.
    static let matchers: [String: String] = [
        "equalToXml": "the equalToXml matcher",
        "matchesXPath": "the matchesXPath matcher",
        "binaryEqualTo": "the binaryEqualTo body matcher",
        "before": "the before date-time matcher",
        "after": "the after date-time matcher",
        "equalToDateTime": "the equalToDateTime matcher",
    ]

    /// Faults (`response.fault`).
    static let faults: [String: String] = [
        "MALFORMED_RESPONSE_CHUNK": "the MALFORMED_RESPONSE_CHUNK fault",
        "RANDOM_DATA_THEN_CLOSE": "the RANDOM_DATA_THEN_CLOSE fault",
    ]

    /// The start every such refusal has, so a reader (and a script) can tell them from mistakes.
    static let prefix = "WireMock feature not supported by pokestub: "

    /// `WireMock feature not supported by pokestub: random delays (response.delayDistribution)`, or `nil` when
    /// `name` is not a WireMock feature in `table`.
    static func refusal(_ name: String, in table: [String: String]) -> String? {
        table[name].map { prefix + $0 }
    }
}
