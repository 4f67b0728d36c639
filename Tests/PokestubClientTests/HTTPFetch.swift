import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A plain HTTP exchange for tests that act as the app: status, headers and body.
struct HTTPFetch {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// Sends one request with an ephemeral session (no cache, no cookies).
    static func send(
        _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPFetch {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return HTTPFetch(status: http.statusCode, headers: fields, body: data)
    }
}
