import Foundation

extension AdminAPI {
    /// `/__admin/sessions`: open, list, show and end sessions. A session's own routes,
    /// `/__admin/sessions/{id}/...`, are forwarded to its admin API before the table is consulted.
    static let sessionRoutes: [AdminRoute] = [
        .now("POST", "sessions") { api, request throws(AdminError) in try api.createSession(request.http.body) },
        .now("GET", "sessions") { api, request throws(AdminError) in try api.listSessions(request.http) },
        .now("GET", "sessions/{id}") { api, request throws(AdminError) in
            try api.session(id: request.parameter("id"), request.http)
        },
        .now("DELETE", "sessions/{id}") { api, request throws(AdminError) in
            try api.endSession(id: request.parameter("id"), request.http)
        },
    ]

    /// The open sessions; when the sessions need secrets, only those whose secret `request` carries (a job
    /// sees what it made), with `meta.total` counting all.
    private func listSessions(_ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        let registry = try requireSessions()
        let all = registry.all
        let shown = registry.limits.requiresSecrets ? all.filter { $0.isOwned(by: request) } : all
        return .json(
            .object([
                "sessions": .array(
                    shown.map {
                        $0.json(
                            baseURL: info.baseURL, adminBaseURL: info.adminBaseURL, lastUsed: registry.lastUsed(of: $0))
                    }),
                "meta": .object(["total": .integer(Int64(all.count))]),
            ]))
    }

    private func ownedSession(id: String, _ request: HTTPRequest) throws(AdminError) -> Session {
        let registry = try requireSessions()
        guard let session = registry.session(id: id) else { throw .notFound("no session \(id)") }
        if let refusal = AdminAPI.sessionRefusal(session, registry, request) { throw refusal }
        return session
    }

    private func session(id: String, _ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        let session = try ownedSession(id: id, request)
        let lastUsed = try requireSessions().lastUsed(of: session)
        return .json(session.json(baseURL: info.baseURL, adminBaseURL: info.adminBaseURL, lastUsed: lastUsed))
    }

    private func endSession(id: String, _ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        _ = try ownedSession(id: id, request)
        guard try requireSessions().remove(id: id) else { throw .notFound("no session \(id)") }
        return .json(.object([:]))
    }

    /// `POST /__admin/sessions` with an optional body `{"name": "job-42", "idleTimeoutSeconds": 600}`;
    /// answers 201 with the session: `{"id", "secret", "name", "baseUrl", "adminUrl", "idleTimeoutSeconds", ...}`.
    /// `secret` is shown in this answer only.
    ///
    /// - Throws: ``AdminError``: 400 for a bad body or idle time, 429 when ``SessionLimits/maxSessions`` are open.
    private func createSession(_ body: Data) throws(AdminError) -> HTTPResponse {
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
            return .json(
                session.json(baseURL: info.baseURL, adminBaseURL: info.adminBaseURL, includingSecret: true),
                status: 201)
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
}
