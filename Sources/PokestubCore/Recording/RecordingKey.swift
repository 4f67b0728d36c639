import Foundation

/// What makes two requests the same recording: method, path, query compared without regard to order, the
/// body's digest, and any captured header values.
///
/// Concurrent requests with the same key share one upstream call; requests with the same key always land in
/// the same file (``RecordingFileName``).
package struct RecordingKey: Sendable, Hashable {
    /// The method as sent.
    package var method: String
    /// The path, percent-decoded once (`%2F` kept), as ``HTTPRequest/path``.
    package var path: String
    /// The query parameters, decoded, secret values redacted, sorted by name then value.
    package var query: [QueryItem]
    /// The body's digest: 16 hex digits of a stable hash of the body (of its canonical form when it is
    /// JSON), or `nil` when there is no body.
    package var bodyDigest: String?
    /// Captured request header values by lower-cased name (``RecordingOptions/capturedHeaders``).
    package var capturedHeaders: [String: String]

    /// One query parameter.
    package struct QueryItem: Sendable, Hashable, Comparable {
        /// The decoded name.
        package var name: String
        /// The decoded value, or ``RecordingOptions/redactedValue``.
        package var value: String

        package static func < (lhs: QueryItem, rhs: QueryItem) -> Bool {
            lhs.name != rhs.name ? lhs.name < rhs.name : lhs.value < rhs.value
        }
    }

    /// The key of a request.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - options: Redaction and captured headers.
    package init(_ request: HTTPRequest, options: RecordingOptions) {
        method = request.method
        path = request.path
        query = request.queryParameters.map { parameter in
            QueryItem(
                name: parameter.name,
                value: options.isRedactedQueryParameter(parameter.name)
                    ? RecordingOptions.redactedValue : parameter.value)
        }.sorted()
        bodyDigest = request.body.isEmpty ? nil : RecordingKey.digest(of: request.body)
        var captured: [String: String] = [:]
        for name in options.capturedHeaders.keys {
            let values = request.headers.values(for: name)
            guard !values.isEmpty else { continue }
            let joined = values.joined(separator: ", ")
            captured[name.asciiLowercased] =
                options.isRedactedHeader(name) ? RecordingOptions.redactedValue : joined
        }
        capturedHeaders = captured
    }

    /// A short hash of the normalized query, or `nil` without one: 8 hex digits.
    package var queryHash: String? {
        guard !query.isEmpty else { return nil }
        var hash = StableHash()
        for item in query {
            hash.combine(field: item.name)
            hash.combine(field: item.value)
        }
        return StableHash.hex(hash.value)
    }

    /// A short hash of the body digest and captured header values, or `nil` when there are neither:
    /// 8 hex digits.
    package var bodyHash: String? {
        guard bodyDigest != nil || !capturedHeaders.isEmpty else { return nil }
        var hash = StableHash()
        hash.combine(field: bodyDigest ?? "")
        for (name, value) in capturedHeaders.sorted(by: { $0.key < $1.key }) {
            hash.combine(field: name)
            hash.combine(field: value)
        }
        return StableHash.hex(hash.value)
    }

    /// The digest of a body: of its canonical serialization when it is JSON (so whitespace and key order
    /// do not matter, as for `equalToJson`), else of its bytes.
    static func digest(of body: Data) -> String {
        if let json = try? JSONValue.parse(body), json.isContainer {
            return StableHash.hex(StableHash.of(json.serialized()), digits: 16)
        }
        return StableHash.hex(StableHash.of(body), digits: 16)
    }
}
