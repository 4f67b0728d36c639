import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One plain HTTP exchange, as an app would make it: status, headers and body, whatever the status.
///
/// Each call uses a new ephemeral `URLSession` (no cache, no cookies, nothing shared between requests), so
/// a request always reaches the server. Redirects are followed, as `URLSession` does.
///
/// ```swift
/// let answer = try await HTTPFetch.send(URL(string: base + "/api/v2/pokemon/1/")!)
/// #expect(answer.status == 200)
/// ```
package struct HTTPFetch: Sendable {
    /// The HTTP status code, such as 200.
    package var status: Int
    /// The response's header fields, names lower-cased (`content-type`); a repeated field's values are
    /// joined with `, `, as `URLSession` reports them.
    package var headers: [String: String]
    /// The body bytes, decoded from any content coding.
    package var body: Data

    /// The body decoded as UTF-8 (invalid sequences replaced by U+FFFD).
    package var text: String { String(decoding: body, as: UTF8.self) }

    /// Sends one request and waits for the whole response (at most 10 s).
    ///
    /// - Parameters:
    ///   - url: The absolute URL, used as given.
    ///   - method: The method; `GET` by default.
    ///   - body: The request body, or `nil` for none.
    ///   - headers: Header fields to set.
    /// - Returns: The response.
    /// - Throws: `URLError` when no response arrived (refused, timed out); ``TestFailure`` when the response
    ///   is not HTTP.
    package static func send(
        _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPFetch {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw TestFailure("\(method) \(url.absoluteString): not an HTTP response")
        }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return HTTPFetch(status: http.statusCode, headers: fields, body: data)
    }

    /// Sends one request to a URL given as text; see ``send(_:method:body:headers:)``.
    ///
    /// - Throws: ``TestFailure`` when `url` is not a valid URL, else as the other `send`.
    package static func send(
        _ url: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPFetch {
        guard let parsed = URL(string: url) else { throw TestFailure("not a URL: \(url)") }
        return try await send(parsed, method: method, body: body, headers: headers)
    }
}
