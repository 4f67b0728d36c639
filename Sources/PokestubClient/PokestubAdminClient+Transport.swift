import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension PokestubAdminClient {
    /// Sends one admin request and returns the JSON it answers with.
    ///
    /// Use it for operations this client has no method for.
    ///
    /// - Parameters:
    ///   - method: The method, e.g. `POST`.
    ///   - path: The path after `/__admin`, e.g. `/mappings`.
    ///   - query: Query items.
    ///   - body: A JSON body, sent with `Content-Type: application/json`.
    /// - Returns: The JSON body of a 2xx answer; an empty object when the body is empty.
    /// - Throws: ``PokestubClientError/transport(method:url:underlying:)`` without an answer,
    ///   ``PokestubClientError/refused(method:url:status:errors:)`` for a non-2xx answer,
    ///   ``PokestubClientError/unexpectedResponse(method:url:reason:)`` when a 2xx body is not JSON.
    @discardableResult
    public func send(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: StubJSON? = nil
    ) async throws(PokestubClientError) -> StubJSON {
        let url = adminURL(path, query: query)
        var request = URLRequest(url: url, timeoutInterval: timeoutSeconds)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body.serialized()
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .transport(method: method, url: url, underlying: PokestubAdminClient.describe(error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw .unexpectedResponse(method: method, url: url, reason: "not an HTTP response")
        }
        guard (200..<300).contains(http.statusCode) else {
            throw .refused(
                method: method, url: url, status: http.statusCode, errors: PokestubAdminClient.errors(in: data))
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .object([:]) }
        do {
            return try StubJSON(parsing: data, what: "the answer")
        } catch {
            let excerpt = String(decoding: data.prefix(200), as: UTF8.self)
            throw .unexpectedResponse(method: method, url: url, reason: "the body is not JSON: \(excerpt)")
        }
    }

    /// Reads WireMock's `{"errors": [{"title", "detail"}]}`, or keeps the body's start as the title.
    static func errors(in data: Data) -> [AdminErrorDetail] {
        if let json = try? StubJSON(parsing: data), let items = json["errors"]?.arrayValue {
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
        _ json: StubJSON, _ key: String, method: String, url: URL,
        _ read: (StubJSON) throws(PokestubClientError) -> Element
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
