import Foundation

/// One answer of the admin API, whatever its status: what ``PokestubAdminClient`` reads before deciding
/// whether it is a success.
struct AdminAnswer: Sendable {
    /// The request method, e.g. `POST`.
    var method: String
    /// The admin URL requested.
    var url: URL
    /// The HTTP status.
    var status: Int
    /// The body bytes.
    var data: Data

    /// The body as JSON: an empty object when the body is blank.
    ///
    /// - Throws: ``PokestubClientError/unexpectedResponse(method:url:reason:)`` when the body is not JSON.
    func json() throws(PokestubClientError) -> JSONValue {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .object([:]) }
        do {
            return try JSONValue(parsing: data, what: "the answer")
        } catch {
            let excerpt = String(decoding: data.prefix(200), as: UTF8.self)
            throw .unexpectedResponse(method: method, url: url, reason: "the body is not JSON: \(excerpt)")
        }
    }
}
