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
/// | `POST /__admin/recordings/start`, `/stop`, `/snapshot`, `GET /__admin/recordings/status` | recording |
/// | `POST /__admin/requests/reset` | clear the journal (WireMock's older route) |
/// | `POST /__admin/requests/wait?count=&timeoutMs=` | block until `count` requests match the pattern in the body |
/// | `GET /__admin/scenarios`, `POST /__admin/scenarios/reset`, `PUT /__admin/scenarios/{name}/state` | scenarios |
/// | `POST, GET /__admin/sessions`, `GET, DELETE /__admin/sessions/{id}` | per-job sessions |
/// | `/__admin/sessions/{id}/...` | every route above, scoped to one session |
///
/// Admin requests are not journaled. Every refusal is a 4xx with a JSON reason (``AdminError``).
public struct AdminAPI: Sendable {
    /// The path prefix of admin requests.
    public static let prefix = "/__admin"

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
    public init(
        store: StubStore, journal: RequestJournal, info: ServerInfo, recordings: Recordings? = nil,
        sessions: SessionRegistry? = nil, maxStubs: Int? = nil, basePath: String = "", bodyFilesRoot: String? = nil
    ) {
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

    /// Answers an admin request, later when it waits (`POST /__admin/requests/wait`, also in a session).
    public func reply(_ request: HTTPRequest) -> HTTPReply {
        let parts = request.path.dropFirst(AdminAPI.prefix.count).split(separator: "/")
        if parts.count >= 3, parts[0] == "sessions", let sessions {
            guard let session = sessions.session(id: String(parts[1])) else {
                return .response(AdminError.notFound("no session \(parts[1]) (ended, expired or never made)").response)
            }
            let rest = parts.dropFirst(2).joined(separator: "/")
            var scoped = HTTPRequest(
                method: request.method,
                rawURL: AdminAPI.prefix + "/" + rest + (request.rawQuery.map { "?" + $0 } ?? ""),
                headers: request.headers, body: request.body, clientAddress: request.clientAddress)
            scoped.clientAddress = request.clientAddress
            return session.admin.reply(scoped)
        }
        if request.method == "POST", parts.count == 2, parts[0] == "requests", parts[1] == "wait" {
            do { return try waitForRequests(request) } catch { return .response(error.response) }
        }
        return .response(handle(request))
    }

    /// Whether a request is for the admin API.
    public static func isAdmin(_ request: HTTPRequest) -> Bool {
        request.path == prefix || request.path.hasPrefix(prefix + "/")
    }

    /// Answers an admin request.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return try route(request)
        } catch {
            return error.response
        }
    }

    private func route(_ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        let parts = request.path.dropFirst(AdminAPI.prefix.count).split(separator: "/").map(String.init)
        let method = request.method
        // Paths with an id segment take the shape `mappings/*`; `id` is that segment.
        var shape = parts.joined(separator: "/")
        var id = ""
        if parts.count == 2,
            (parts[0] == "mappings" && parts[1] != "reset")
                || (parts[0] == "requests"
                    && !["count", "find", "remove", "unmatched", "reset", "wait"].contains(parts[1]))
                || parts[0] == "sessions"
        {
            shape = parts[0] + "/*"
            id = parts[1]
        } else if parts.count == 3, parts[0] == "scenarios", parts[2] == "state" {
            shape = "scenarios/*/state"
            id = parts[1]
        }
        switch (method, shape) {
        case ("GET", "health"): return health()
        case ("GET", "version"): return .json(.object(["version": .string(PokestubVersion.current)]))
        case ("GET", "mappings"): return try listMappings(request)
        case ("POST", "mappings"): return try createMapping(request.body, id: nil, status: 201)
        case ("DELETE", "mappings"):
            store.removeAll()
            return .json(.object([:]))
        case ("POST", "mappings/reset"): return try resetMappings()
        case ("GET", "mappings/*"): return try mapping(id: id)
        case ("PUT", "mappings/*"):
            let uuid = try AdminAPI.uuid(id)
            guard store.index.stub(id: uuid) != nil else { throw .notFound("no stub with id \(id)") }
            return try createMapping(request.body, id: uuid, status: 200)
        case ("DELETE", "mappings/*"):
            guard store.remove(id: try AdminAPI.uuid(id)) else { throw .notFound("no stub with id \(id)") }
            return .json(.object([:]))
        case ("GET", "requests"): return try listRequests(request)
        case ("DELETE", "requests"), ("POST", "requests/reset"):
            journal.clear()
            return .json(.object([:]))
        case ("POST", "requests/count"):
            try requireJournal()
            let pattern = try AdminAPI.requestPattern(request.body)
            let count = journal.events.filter { pattern.matches($0.request) }.count
            return .json(.object(["count": .integer(Int64(count))]))
        case ("POST", "requests/find"):
            try requireJournal()
            let pattern = try AdminAPI.requestPattern(request.body)
            let found = journal.events.filter { pattern.matches($0.request) }
            return .json(.object(["requests": .array(found.map(loggedRequest))]))
        case ("POST", "requests/remove"):
            let pattern = try AdminAPI.requestPattern(request.body)
            let removed = journal.events.filter { pattern.matches($0.request) }
            let ids = Set(removed.map(\.id))
            journal.removeAll { ids.contains($0.id) }
            return .json(.object(["requests": .array(removed.map(loggedRequest))]))
        case ("GET", "requests/unmatched"):
            try requireJournal()
            let unmatched = try recentUnmatched(limit: AdminAPI.intParameter(request, "limit"))
            return .json(.object(["requests": .array(unmatched.map(loggedRequest))]))
        case ("GET", "requests/unmatched/near-misses"):
            try requireJournal()
            let limit = try AdminAPI.intParameter(request, "limit") ?? AdminAPI.defaultNearMissRequests
            return unmatchedNearMisses(recentUnmatched(limit: limit))
        case ("GET", "requests/*"):
            guard let event = journal.event(id: try AdminAPI.uuid(id)) else {
                throw .notFound("no serve event with id \(id)")
            }
            return .json(event.json(baseURL: journalBaseURL))
        case ("DELETE", "requests/*"):
            let uuid = try AdminAPI.uuid(id)
            guard journal.removeAll(where: { $0.id == uuid }) > 0 else {
                throw .notFound("no serve event with id \(id)")
            }
            return .json(.object([:]))
        case ("POST", "recordings/start"), ("POST", "recordings/stop"), ("GET", "recordings/status"),
            ("POST", "recordings/snapshot"):
            return try recording(operation: parts[1], request)
        case ("POST", "reset"):
            journal.clear()
            store.resetToFiles()
            store.scenarios.reset()
            return .json(.object([:]))
        case ("GET", "scenarios"): return listScenarios()
        case ("POST", "scenarios/reset"):
            store.scenarios.reset()
            return .json(.object([:]))
        case ("PUT", "scenarios/*/state"): return try setScenarioState(name: id, body: request.body)
        case ("POST", "sessions"): return try createSession(request.body)
        case ("GET", "sessions"):
            let all = try requireSessions().all
            return .json(
                .object([
                    "sessions": .array(all.map { $0.json(baseURL: info.baseURL, adminBaseURL: info.adminBaseURL) }),
                    "meta": .object(["total": .integer(Int64(all.count))]),
                ]))
        case ("GET", "sessions/*"):
            guard let session = try requireSessions().session(id: id) else { throw .notFound("no session \(id)") }
            return .json(session.json(baseURL: info.baseURL, adminBaseURL: info.adminBaseURL))
        case ("DELETE", "sessions/*"):
            guard try requireSessions().remove(id: id) else { throw .notFound("no session \(id)") }
            return .json(.object([:]))
        default:
            let known = AdminAPI.knownShapes.contains(shape)
            if known {
                throw AdminError(
                    status: 405, title: "Method not allowed",
                    detail: "\(method) is not supported on \(request.path)")
            }
            throw .notFound("no admin operation at \(request.method) \(request.path)")
        }
    }

    private static let knownShapes: Set<String> = [
        "health", "version", "mappings", "mappings/reset", "mappings/*", "requests", "requests/count",
        "requests/find", "requests/remove", "requests/unmatched", "requests/unmatched/near-misses", "requests/*",
        "reset", "recordings/start", "recordings/stop", "recordings/status", "recordings/snapshot",
        "requests/reset", "requests/wait", "sessions", "sessions/*", "scenarios", "scenarios/reset",
        "scenarios/*/state",
    ]

    // MARK: Health

    private func health() -> HTTPResponse {
        let current = info
        let reload = store.lastReload
        var body: [String: JSONValue] = [
            "status": .string(reload?.succeeded == false ? "degraded" : "healthy"),
            "version": .string(PokestubVersion.current),
            "mode": .string(current.mode.rawValue),
            "baseUrl": .string(current.baseURL),
            "stubs": .integer(Int64(store.index.count)),
            "journal": .object([
                "entries": .integer(Int64(journal.count)), "maxEntries": .integer(Int64(journal.capacity)),
            ]),
            "uptimeInSeconds": .integer(Int64(Date().timeIntervalSince(current.startedAt))),
            "timestamp": .string(ServeEvent.timestamp(Date())),
        ]
        if let reload {
            body["lastReload"] = .object([
                "at": .string(ServeEvent.timestamp(reload.at)),
                "succeeded": .bool(reload.succeeded),
                "stubCount": .integer(Int64(reload.stubCount)),
                "problems": .array(reload.problems.map { .string($0.description) }),
            ])
            body["message"] = .string(
                reload.succeeded
                    ? "serving \(store.index.count) stubs"
                    : "last reload failed with \(reload.problems.count) problem(s); still serving the previous stubs")
        }
        return .json(.object(body))
    }

    // MARK: Mappings

    private func listMappings(_ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        let stubs = store.index.stubs
        let offset = try AdminAPI.intParameter(request, "offset") ?? 0
        let limit = try AdminAPI.intParameter(request, "limit") ?? stubs.count
        let page = stubs.reversed().dropFirst(offset).prefix(limit)
        return .json(
            .object([
                "mappings": .array(page.map(\.definition)),
                "meta": .object(["total": .integer(Int64(stubs.count))]),
            ]))
    }

    private func mapping(id: String) throws(AdminError) -> HTTPResponse {
        guard let stub = store.index.stub(id: try AdminAPI.uuid(id)) else { throw .notFound("no stub with id \(id)") }
        return .json(stub.definition)
    }

    private func createMapping(_ body: Data, id: UUID?, status: Int) throws(AdminError) -> HTTPResponse {
        var json = try AdminAPI.parse(body, what: "stub mapping")
        if let id, case .object(var members) = json {
            members["id"] = .string(id.uuidString.lowercased())
            members.removeValue(forKey: "uuid")
            json = .object(members)
        }
        let filesRoot = bodyFilesRoot.map { URL(fileURLWithPath: $0).appendingPathComponent("__files") }
        let stub: StubMapping
        do {
            stub = try StubMapping(
                json: json, defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: filesRoot))
        } catch {
            throw .badRequest("Invalid stub mapping", error.description)
        }
        if let maxStubs, store.index.stub(id: stub.id) == nil, store.index.count >= maxStubs {
            throw AdminError(
                status: 429, title: "Too many stubs",
                detail: "this session holds \(store.index.count) stubs, the limit (sessions.maxStubs) is \(maxStubs)")
        }
        store.add(stub)
        return .json(stub.definition, status: status)
    }

    private func resetMappings() throws(AdminError) -> HTTPResponse {
        let report = store.resetToFiles()
        guard report.succeeded else {
            throw AdminError(
                status: 422, title: "Stub files have problems; the previous stubs are still served",
                detail: report.problems.map(\.description).joined(separator: "\n"))
        }
        return .json(.object(["stubs": .integer(Int64(store.index.count))]))
    }

    // MARK: Requests

    private func listRequests(_ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        try requireJournal()
        var events = journal.events
        let total = events.count
        if let since = request.queryValues("since").first {
            guard let date = AdminAPI.parseDate(since) else {
                throw .badRequest("Invalid parameter since", "expected an ISO 8601 time, got \(since.debugDescription)")
            }
            events = events.filter { $0.receivedAt >= date }
        }
        if let unmatched = request.queryValues("unmatched").first {
            guard let flag = Bool(unmatched) else {
                throw .badRequest("Invalid parameter unmatched", "expected true or false")
            }
            if flag { events = events.filter { !$0.wasMatched } }
        }
        if let stubID = request.queryValues("matchingStub").first {
            let uuid = try AdminAPI.uuid(stubID)
            events = events.filter { $0.stub?.id == uuid }
        }
        var newestFirst = Array(events.reversed())
        if let limit = try AdminAPI.intParameter(request, "limit") { newestFirst = Array(newestFirst.prefix(limit)) }
        let baseURL = journalBaseURL
        return .json(
            .object([
                "requests": .array(newestFirst.map { $0.json(baseURL: baseURL) }),
                "meta": .object(["total": .integer(Int64(total))]),
                "requestJournalDisabled": .bool(!journal.isEnabled),
            ]))
    }

    /// Throws 409 when the journal is off: an empty answer would pass `verify(.never, …)` whatever was sent.
    func requireJournal() throws(AdminError) {
        guard !journal.isEnabled else { return }
        let key = basePath.isEmpty ? "journal.maxEntries" : "sessions.journalMaxEntries"
        throw AdminError(
            status: 409, title: "The request journal is off",
            detail: "\(key) is 0, so no request is kept and none can be listed, counted or found")
    }

    private func loggedRequest(_ event: ServeEvent) -> JSONValue {
        event.request.journalJSON(baseURL: journalBaseURL, receivedAt: event.receivedAt)
    }

    /// How many of the most recent unmatched requests `GET /__admin/requests/unmatched/near-misses` explains
    /// without `?limit=`: each costs a search of the stubs, and a full journal took 17 s and 36 MB.
    static let defaultNearMissRequests = 100

    /// The most recent `limit` unmatched requests (all without a limit), oldest first.
    private func recentUnmatched(limit: Int?) -> [ServeEvent] {
        let events = journal.events
        guard let limit else { return events.filter { !$0.wasMatched } }
        return Array(events.reversed().lazy.filter { !$0.wasMatched }.prefix(limit).reversed())
    }

    private func unmatchedNearMisses(_ unmatched: [ServeEvent]) -> HTTPResponse {
        let index = store.index
        let baseURL = journalBaseURL
        var nearMisses: [JSONValue] = []
        for event in unmatched {
            for nearMiss in NearMiss.closest(to: event.request, in: index) {
                nearMisses.append(
                    .object([
                        "request": event.request.journalJSON(baseURL: baseURL, receivedAt: event.receivedAt),
                        "stubMapping": nearMiss.stub.definition,
                        "matchResult": .object(["distance": .double(nearMiss.result.distance)]),
                        "differences": .array(nearMiss.result.differences.map { .string($0.description) }),
                    ]))
            }
        }
        return .json(.object(["nearMisses": .array(nearMisses)]))
    }

    // MARK: Decoding

    static func parse(_ body: Data, what: String) throws(AdminError) -> JSONValue {
        guard !body.isEmpty else { throw .badRequest("Missing body", "expected a JSON \(what)") }
        do {
            return try JSONValue.parse(body)
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

/// The version of pokestub.
public enum PokestubVersion {
    /// Semantic version of this build.
    public static let current = "0.1.0"
}
