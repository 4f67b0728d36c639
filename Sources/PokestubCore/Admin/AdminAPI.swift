import Foundation

/// The admin API under `/__admin/`: stubs, the request journal, near misses, reset and health, with
/// WireMock's paths and JSON shapes where WireMock has the same operation.
///
/// | route | does |
/// | --- | --- |
/// | `GET /__admin/health`, `GET /__admin/version` | status, stub count, last reload |
/// | `GET, POST, DELETE /__admin/mappings` | list (`?offset=&limit=`), add, remove all |
/// | `GET, PUT, DELETE /__admin/mappings/{id}` | one stub |
/// | `POST /__admin/mappings/reset` | back to the stub files (reload) |
/// | `GET, DELETE /__admin/requests` | the journal, newest first (`?since=&limit=&unmatched=&matchingStub=`) |
/// | `GET, DELETE /__admin/requests/{id}` | one serve event |
/// | `POST /__admin/requests/count`, `/find`, `/remove` | by request pattern |
/// | `GET /__admin/requests/unmatched`, `/unmatched/near-misses` | what no stub answered (`?limit=`) |
/// | `POST /__admin/reset` | journal and runtime stubs |
/// | `POST /__admin/mappings/save` | write the runtime stubs under `mappings/` (not in a session) |
/// | `GET, POST /__admin/settings`, `POST /__admin/shutdown` | global `fixedDelay`; stop the daemon (not in a session) |
/// | `POST /__admin/recordings/start`, `/stop`, `/snapshot`, `GET /__admin/recordings/status` | recording |
/// | `POST /__admin/requests/reset` | clear the journal (WireMock's older route) |
/// | `POST /__admin/requests/wait?count=&timeoutMs=` | block until `count` requests match the pattern in the body |
/// | `GET /__admin/scenarios`, `POST /__admin/scenarios/reset`, `PUT /__admin/scenarios/{name}/state` | scenarios |
/// | `POST, GET /__admin/sessions`, `GET, DELETE /__admin/sessions/{id}` | per-job sessions |
/// | `/__admin/sessions/{id}/...` | every route above, scoped to one session |
/// | `GET /__admin/contract` | upstream answers checked against the API's schemas, per endpoint |
/// | `GET /__admin/dashboard` (+ `/app.js`, `/app.css`, `/stubs`, `/near-misses/{id}`, `/changes`) | the dashboard |
///
/// Each route is a row of one table (``AdminRouter``), registered by the file of its group: `AdminAPI+System`,
/// `+Mappings`, `+Requests`, `+Scenarios`, `+Recordings`, `+Sessions` and `+Dashboard`. A path the table has under other
/// methods answers 405, any other path 404.
///
/// Admin requests are not journaled. Every refusal is a 4xx with a JSON reason (``AdminError``).
package struct AdminAPI: Sendable {
    /// The path prefix of admin requests.
    package static let prefix = "/__admin"

    let store: StubStore
    let journal: RequestJournal
    let info: ServerInfo
    let recordings: Recordings?
    let sessions: SessionRegistry?
    let maxStubs: Int?
    /// The base URL this API's requests are served under: the daemon's, or a session's.
    let basePath: String
    /// Where `bodyFileName` of stubs added at run time is read: the daemon's stub root.
    let bodyFilesRoot: String?
    /// The daemon's global settings, or `nil` in a session (daemon-wide routes answer 403 there).
    let settings: ServeSettings?
    /// What `POST /__admin/shutdown` calls, or `nil` in a session.
    let shutdown: ShutdownTrigger?
    /// The daemon's memory budget, which runtime stubs and answers built whole are charged to, or `nil`.
    let memory: MemoryBudget?
    /// The daemon's threads for slow requests, whose load health reports, or `nil`.
    let slowRequests: SlowRequestPool?
    /// What the daemon saw of upstream answers against the API's schemas, or `nil` (a session's API).
    let contract: ContractMonitor?

    /// Creates the admin API over a server's stubs and journal.
    ///
    /// - Parameters:
    ///   - store: The stubs.
    ///   - journal: The request journal.
    ///   - info: Facts about the server.
    ///   - recordings: The recording state behind `/__admin/recordings/*`; without it those routes answer 404.
    ///   - sessions: The sessions behind `/__admin/sessions`; without them those routes answer 404.
    ///   - maxStubs: The most runtime stubs `POST /__admin/mappings` may hold (429 beyond), or `nil`.
    ///   - basePath: The path prefix of the requests this API's journal holds (a session's `/__sessions/{id}`).
    ///   - bodyFilesRoot: The stub root whose `__files/` runtime stubs' `bodyFileName` name; default the
    ///     store's root.
    ///   - settings: The daemon's global settings behind `/__admin/settings`; `nil` (a session's API) answers 403.
    ///   - shutdown: What `POST /__admin/shutdown` calls; `nil` (a session's API) answers 403.
    ///   - memory: The memory budget runtime stubs (507 past it) and admin answers (429 past it) are charged
    ///     to, or `nil` for none.
    ///   - slowRequests: The daemon's threads for slow requests, reported by health, or `nil`.
    ///   - contract: The daemon's checks of upstream answers against schemas, behind `GET /__admin/contract`;
    ///     `nil` answers 404 there.
    package init(
        store: StubStore, journal: RequestJournal, info: ServerInfo, recordings: Recordings? = nil,
        sessions: SessionRegistry? = nil, maxStubs: Int? = nil, basePath: String = "", bodyFilesRoot: String? = nil,
        settings: ServeSettings? = nil, shutdown: ShutdownTrigger? = nil, memory: MemoryBudget? = nil,
        slowRequests: SlowRequestPool? = nil, contract: ContractMonitor? = nil
    ) {
        self.contract = contract
        self.slowRequests = slowRequests
        self.settings = settings
        self.shutdown = shutdown
        self.memory = memory
        self.bodyFilesRoot = bodyFilesRoot ?? store.root
        self.store = store
        self.journal = journal
        self.info = info
        self.recordings = recordings
        self.sessions = sessions
        self.maxStubs = maxStubs
        self.basePath = basePath
    }

    /// The base URL the journal's requests were sent to: the daemon's, plus a session's path.
    var journalBaseURL: String { info.baseURL + basePath }

    /// Every admin route, which answers 404 or 405 for what it does not list.
    static let router = AdminRouter(
        systemRoutes + mappingRoutes + requestRoutes + scenarioRoutes + recordingRoutes + sessionRoutes
            + dashboardRoutes + settingsRoutes + saveRoutes + contractRoutes)

    /// Answers an admin request, later when it waits (`POST /__admin/requests/wait`, also in a session).
    ///
    /// `/__admin/sessions/{id}/...` goes to that session's admin API as `/__admin/...` (404 for an unknown
    /// session); everything else goes through the route table.
    package func reply(_ request: HTTPRequest) -> HTTPReply {
        let segments = request.path.dropFirst(AdminAPI.prefix.count).split(separator: "/")
        if segments.count >= 3, segments[0] == "sessions", let sessions {
            guard let session = sessions.session(id: String(segments[1])) else {
                return .response(
                    AdminError.notFound("no session \(segments[1]) (ended, expired or never made)").response)
            }
            if let refusal = AdminAPI.sessionRefusal(session, sessions, request) { return .response(refusal.response) }
            let rest = Array(segments.dropFirst(2))
            let scoped = HTTPRequest(
                method: request.method,
                rawURL: AdminAPI.prefix + "/" + rest.joined(separator: "/") + (request.rawQuery.map { "?" + $0 } ?? ""),
                headers: request.headers, body: request.body, clientAddress: request.clientAddress)
            return session.admin.reply(scoped, segments: rest)
        }
        return reply(request, segments: segments)
    }

    /// 403 when the sessions need secrets and `request` does not carry `session`'s.
    static func sessionRefusal(_ session: Session, _ sessions: SessionRegistry, _ request: HTTPRequest) -> AdminError? {
        guard sessions.limits.requiresSecrets, !session.isOwned(by: request) else { return nil }
        return AdminError(
            status: 403, title: "Session secret required",
            detail:
                "send \(Session.secretHeader): <the secret POST /__admin/sessions answered when session \(session.id) was made>"
        )
    }

    /// Answers `request` through the route table; `segments` is its path under `/__admin/`, split at `/`.
    func reply(_ request: HTTPRequest, segments: [Substring]) -> HTTPReply {
        do throws(AdminError) {
            let (route, adminRequest) = try AdminAPI.route(request, segments)
            switch route.action {
            case .now(let respond): return .response(try respond(self, adminRequest))
            case .later(let reply): return try reply(self, adminRequest)
            }
        } catch {
            return .response(error.response)
        }
    }

    /// Whether a request is for the admin API.
    package static func isAdmin(_ request: HTTPRequest) -> Bool {
        request.path == prefix || request.path.hasPrefix(prefix + "/")
    }

    /// Answers an admin request at once.
    ///
    /// Routes that answer later (`POST /__admin/requests/wait`) answer only through ``reply(_:)``; here they
    /// answer 405, and session routes (`/__admin/sessions/{id}/...`) 404.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let segments = request.path.dropFirst(AdminAPI.prefix.count).split(separator: "/")
        do throws(AdminError) {
            let (route, adminRequest) = try AdminAPI.route(request, segments)
            guard case .now(let respond) = route.action else {
                throw AdminError.methodNotAllowed(request.method, request.path)
            }
            return try respond(self, adminRequest)
        } catch {
            return error.response
        }
    }

    /// The route for `request`, whose path under `/__admin/` is `segments`.
    ///
    /// - Throws: ``AdminError``: 404 for a path no route has, 405 for one that routes have under other methods.
    private static func route(
        _ request: HTTPRequest, _ segments: [Substring]
    ) throws(AdminError) -> (AdminRoute, AdminRequest) {
        switch router.match(method: request.method, segments: segments) {
        case .found(let route, let parameters): return (route, AdminRequest(http: request, parameters: parameters))
        case .methodNotAllowed: throw .methodNotAllowed(request.method, request.path)
        case .notFound: throw .noOperation(request.method, request.path)
        }
    }

    // MARK: Decoding

    static func parse(_ body: Data, what: String) throws(AdminError) -> JSONValue {
        guard !body.isEmpty else { throw .badRequest("Missing body", "expected a JSON \(what)") }
        do {
            // WireMock's admin API reads JSON with comments allowed, as its mapping files.
            return try JSONValue.parse(JSONComments.blankedOut(body) ?? body)
        } catch {
            let position = error.line.map { " at line \($0)" + (error.column.map { ", column \($0)" } ?? "") } ?? ""
            throw .badRequest("Invalid JSON", "\(error.message)\(position)")
        }
    }

    static func requestPattern(_ body: Data) throws(AdminError) -> RequestPattern {
        let json = try parse(body, what: "request pattern")
        do { return try RequestPattern(json: json) } catch {
            throw .badRequest("Invalid request pattern", error.description)
        }
    }

    static func uuid(_ text: String) throws(AdminError) -> UUID {
        guard let uuid = UUID(uuidString: text) else {
            throw .badRequest("Invalid id", "\(text.debugDescription) is not a UUID")
        }
        return uuid
    }

    static func intParameter(_ request: HTTPRequest, _ name: String) throws(AdminError) -> Int? {
        guard let text = request.queryValues(name).first else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw .badRequest("Invalid parameter \(name)", "expected a whole number ≥ 0, got \(text.debugDescription)")
        }
        return value
    }

    static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }
}
