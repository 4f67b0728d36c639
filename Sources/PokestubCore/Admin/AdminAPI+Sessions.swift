import Foundation

extension AdminAPI {
    /// `POST /__admin/sessions` with an optional body `{"name": "job-42", "idleTimeoutSeconds": 600}`;
    /// answers 201 with the session: `{"id", "name", "baseUrl", "adminUrl", "idleTimeoutSeconds", ...}`.
    ///
    /// - Throws: ``AdminError``: 400 for a bad body or idle time, 429 when ``SessionLimits/maxSessions`` are open.
    func createSession(_ body: Data) throws(AdminError) -> HTTPResponse {
        let sessions = try requireSessions()
        var name: String?
        var idle: Int?
        if !body.isEmpty {
            guard case .object(let members) = try AdminAPI.parse(body, what: "session") else {
                throw .badRequest("Invalid session", "expected a JSON object")
            }
            for key in members.keys where !["name", "idleTimeoutSeconds"].contains(key) {
                throw .badRequest(
                    "Invalid session", "unsupported field \"\(key)\" (supported: name, idleTimeoutSeconds)")
            }
            switch members["name"] {
            case nil, .null?: break
            case .string(let text)?: name = text
            default: throw .badRequest("Invalid session", "name must be a string")
            }
            if let value = members["idleTimeoutSeconds"], value != .null {
                guard let seconds = value.intValue else {
                    throw .badRequest("Invalid session", "idleTimeoutSeconds must be a whole number")
                }
                idle = seconds
            }
        }
        do {
            let session = try sessions.create(name: name, idleTimeoutSeconds: idle)
            return .json(session.json(baseURL: info.baseURL, adminBaseURL: info.adminBaseURL), status: 201)
        } catch {
            switch error {
            case .tooManySessions(let limit):
                throw AdminError(
                    status: 429, title: "Too many sessions",
                    detail:
                        "\(limit) sessions are open, the limit (sessions.max); end one with DELETE /__admin/sessions/{id}"
                )
            case .invalidIdleTimeout(let seconds, let limit):
                throw .badRequest("Invalid session", "idleTimeoutSeconds must be from 1 to \(limit), not \(seconds)")
            }
        }
    }

    func requireSessions() throws(AdminError) -> SessionRegistry {
        guard let sessions else { throw .notFound("sessions are not available here") }
        return sessions
    }

    /// `POST /__admin/requests/wait?count=N&timeoutMs=T` with a request pattern as the body: answers as soon as
    /// `count` (default 1) matching requests are in the journal, counting those already there, with
    /// `{"count", "requests": [...]}`; or after `timeoutMs` (default 10,000, at most 300,000) with 408 and
    /// `{"errors", "count", "requests", "nearMisses"}` naming how many arrived and the closest requests.
    ///
    /// Holds no server thread while waiting: the journal completes the reply when the last request arrives.
    func waitForRequests(_ request: HTTPRequest) throws(AdminError) -> HTTPReply {
        let pattern = try AdminAPI.requestPattern(request.body)
        let count = try AdminAPI.intParameter(request, "count") ?? 1
        let timeout = try AdminAPI.intParameter(request, "timeoutMs") ?? 10_000
        guard count >= 1 else { throw .badRequest("Invalid parameter count", "expected 1 or more") }
        guard timeout <= 300_000 else {
            throw .badRequest("Invalid parameter timeoutMs", "expected at most 300000 ms, got \(timeout)")
        }
        try requireJournal()
        let journal = self.journal
        let baseURL = journalBaseURL
        return .deferred { complete in
            journal.wait(for: pattern, count: count, timeoutMilliseconds: timeout) { outcome in
                switch outcome {
                case .satisfied(let events):
                    complete(
                        .json(
                            .object([
                                "count": .integer(Int64(events.count)),
                                "requests": .array(
                                    events.map { $0.request.journalJSON(baseURL: baseURL, receivedAt: $0.receivedAt) }),
                            ])))
                case .timedOut(let events):
                    let nearMisses = journal.events
                        .map { ($0, pattern.evaluate($0.request)) }
                        .filter { !$0.1.isMatch }
                        .sorted { $0.1.distance < $1.1.distance }
                        .prefix(3)
                        .map { event, result in
                            JSONValue.object([
                                "request": event.request.journalJSON(baseURL: baseURL, receivedAt: event.receivedAt),
                                "matchResult": .object(["distance": .double(result.distance)]),
                                "differences": .array(result.differences.map { .string($0.description) }),
                            ])
                        }
                    var body = AdminError(
                        status: 408, title: "Timed out waiting for requests",
                        detail: "\(events.count) of \(count) matching requests arrived within \(timeout) ms"
                    ).response
                    if case .object(var members)? = try? JSONValue.parse(body.body.data) {
                        members["count"] = .integer(Int64(events.count))
                        members["requests"] = .array(
                            events.map { $0.request.journalJSON(baseURL: baseURL, receivedAt: $0.receivedAt) })
                        members["nearMisses"] = .array(nearMisses)
                        body = .json(.object(members), status: 408)
                    }
                    complete(body)
                }
            }
        }
    }
}
