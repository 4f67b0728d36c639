import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension PokestubAdminClient {
    /// Sends one admin request and returns the JSON it answers with.
    ///
    /// Use it for operations this client has no method for. The admin token, when the client has one, goes
    /// along as `Authorization: Bearer <token>`.
    ///
    /// - Parameters:
    ///   - method: The method, e.g. `POST`.
    ///   - path: The path after ``adminPath``, e.g. `/mappings`.
    ///   - query: Query items.
    ///   - body: A JSON body, sent with `Content-Type: application/json`.
    /// - Returns: The JSON body of a 2xx answer; an empty object when the body is empty.
    /// - Throws: ``PokestubClientError/transport(method:url:underlying:)`` without an answer,
    ///   ``PokestubClientError/unauthorized(method:url:tokenSent:errors:)`` for a 401,
    ///   ``PokestubClientError/refused(method:url:status:errors:)`` for another non-2xx answer,
    ///   ``PokestubClientError/unexpectedResponse(method:url:reason:)`` when a 2xx body is not JSON.
    @discardableResult
    public func send(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: JSONValue? = nil
    ) async throws(PokestubClientError) -> JSONValue {
        let answer = try await exchange(method, path, query: query, body: body)
        guard (200..<300).contains(answer.status) else { throw refusal(answer) }
        return try answer.json()
    }

    /// Sends one admin request and returns the answer whatever its status.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path after ``adminPath``.
    ///   - query: Query items.
    ///   - body: A JSON body.
    ///   - extraSeconds: Time the server may take on top of ``timeout`` (a wait's own timeout).
    /// - Throws: ``PokestubClientError/transport(method:url:underlying:)`` without an answer.
    func exchange(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: JSONValue? = nil,
        extraSeconds: Double = 0
    ) async throws(PokestubClientError) -> AdminAnswer {
        let url = adminURL(path, query: query)
        var request = URLRequest(url: url, timeoutInterval: timeoutInterval + extraSeconds)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let sessionSecret { request.setValue(sessionSecret, forHTTPHeaderField: "Pokestub-Session-Secret") }
        if let body {
            request.httpBody = body.serialized()
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await PokestubAdminClient.data(
                for: request, on: session, within: timeoutInterval + extraSeconds)
        } catch {
            throw .transport(method: method, url: url, underlying: PokestubAdminClient.describe(error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw .unexpectedResponse(method: method, url: url, reason: "not an HTTP response")
        }
        return AdminAnswer(method: method, url: url, status: http.statusCode, data: data)
    }

    /// Runs a request, failing with `URLError(.timedOut)` when no answer has come within `seconds`.
    ///
    /// The request carries the same timeout, but swift-corelibs-foundation's `URLSession` ignores a request's
    /// `timeoutInterval` for the session configuration's 60 s, so the limit is also kept here: whichever of
    /// the answer and the limit comes first ends the wait, and the other is cancelled.
    static func data(
        for request: URLRequest, on session: URLSession, within seconds: Double
    ) async throws -> (Data, URLResponse) {
        try await withThrowingTaskGroup(of: (Data, URLResponse).self) { group in
            group.addTask { try await session.data(for: request) }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                throw URLError(.timedOut)
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// The error for a non-2xx answer: ``PokestubClientError/unauthorized(method:url:tokenSent:errors:)`` for
    /// 401, else ``PokestubClientError/refused(method:url:status:errors:)``.
    func refusal(_ answer: AdminAnswer) -> PokestubClientError {
        let errors = PokestubAdminClient.errors(in: answer.data)
        if answer.status == 401 {
            return .unauthorized(method: answer.method, url: answer.url, tokenSent: token != nil, errors: errors)
        }
        return .refused(method: answer.method, url: answer.url, status: answer.status, errors: errors)
    }

    /// Reads WireMock's `{"errors": [{"title", "detail"}]}`, or keeps the body's start as the title.
    static func errors(in data: Data) -> [AdminErrorDetail] {
        if let json = try? JSONValue(parsing: data), let items = json["errors"]?.arrayValue {
            let details = items.compactMap { item -> AdminErrorDetail? in
                guard let title = item["title"]?.stringValue else { return nil }
                return AdminErrorDetail(title: title, detail: item["detail"]?.stringValue)
            }
            if !details.isEmpty { return details }
        }
        let text = String(decoding: data.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? [] : [AdminErrorDetail(title: text)]
    }

    /// `URLError` code and message, or the error's description.
    static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError {
            return "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
        }
        return String(describing: error)
    }

    /// Reads an array member of an answer with a reader for each element.
    static func list<Element>(
        _ json: JSONValue, _ key: String, method: String, url: URL,
        _ read: (JSONValue) throws(PokestubClientError) -> Element
    ) throws(PokestubClientError) -> [Element] {
        guard let items = json[key]?.arrayValue else {
            throw .unexpectedResponse(method: method, url: url, reason: "no \"\(key)\" array in the answer")
        }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for item in items { elements.append(try read(item)) }
        return elements
    }
}
