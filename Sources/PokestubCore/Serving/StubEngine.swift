import Foundation

/// The product behind the socket: answers each request from the stubs, journals it, and hands admin
/// requests to the ``AdminAPI``.
///
/// It is the ``HTTPHandler`` the server calls; it does no I/O of its own on the request path (matching
/// reads an immutable ``StubIndex``; the journal append takes one lock). Every request is served the same
/// way within a ``ServingScope``: the daemon's, or under `/__sessions/{id}` a session's.
package final class StubEngine: HTTPHandler {
    /// The stubs.
    package let store: StubStore
    /// The request journal.
    package let journal: RequestJournal
    /// The memory the journals, runtime stubs, admin answers and parsed request bodies hold together
    /// (``MemoryBudget``).
    package let memory: MemoryBudget
    /// The admin API.
    package let admin: AdminAPI
    /// The serve mode now (the configured one, or a record mode started through the admin API).
    package var mode: ServeMode { info.mode }
    /// Facts about the running server (base URL, mode, start time).
    package let info: ServerInfo
    /// Upstream calls, recordings and the state of `/__admin/recordings/*`.
    package let recordings: Recordings
    /// Points upstream links in served bodies at this server, or `nil` when `rewriteUpstreamLinks` is off.
    package let linkRewriter: LinkRewriter?
    /// Per-job sessions under `/__sessions/{id}`.
    package let sessions: SessionRegistry
    /// Who may use the admin API, and whether this server answers it.
    package let adminAccess: AdminAccess
    /// The global settings (`/__admin/settings`): a delay added to every stub answer of the daemon's scope.
    package let settings: ServeSettings
    /// What `POST /__admin/shutdown` calls; `pokestub serve` installs the handler that stops it.
    package let shutdown: ShutdownTrigger
    /// The work a request's response templates may do (config `limits.maxTemplateSteps` and
    /// `limits.maxResponseBytes`).
    package let templateLimits: TemplateLimits
    /// Checks upstream answers against the API's schemas (PokeAPI's), or `nil` when they are not checked.
    package let contract: ContractMonitor?
    private let nearMisses = NearMissCache()
    /// Where requests too slow for a server thread are served (``SlowRequestPool``).
    let slowRequests = SlowRequestPool(
        threads: ProcessInfo.processInfo.activeProcessorCount, queueLimit: StubEngine.slowRequestQueueLimit)
    let logger: Logger

    /// The matching steps a request may take on a server thread: a twentieth of ``MatchBudget/defaultSteps``,
    /// about 10 ms. A request whose matching takes more is matched again on a ``SlowRequestPool`` thread with
    /// the whole budget, so no request holds a server thread for long.
    static let serverThreadMatchSteps = MatchBudget.defaultSteps / 20
    /// The template steps a request may take on a server thread: 100,000, a fifth of the default budget (some
    /// 20 ms) and above the shipped list page's 95,658 for the longest list; past them the request is served
    /// again on a ``SlowRequestPool`` thread with the whole ``TemplateLimits``.
    static let serverThreadTemplateSteps = 100_000
    /// How many slow requests may wait for a thread of the ``SlowRequestPool``; past them a slow request is
    /// answered 503.
    static let slowRequestQueueLimit = 256

    /// Creates an engine from its parts. `PokestubDaemon` builds them from the configuration; the engine
    /// adds only what no other part needs (the admin API over the parts, the global settings, the near-miss
    /// cache and the ``SlowRequestPool``).
    ///
    /// - Parameters:
    ///   - store: The stubs to serve.
    ///   - journal: The daemon's request journal (sessions have their own).
    ///   - memory: The daemon's memory budget (``MemoryBudget``), the one `journal` and `sessions` count
    ///     against through their ``JournalBodyBudget``; matching charges parsed request bodies to it.
    ///   - info: Facts about the running server: mode, base URL, admin base URL (``ServerInfo``).
    ///   - recordings: Upstream calls, recordings and the state of `/__admin/recordings/*`.
    ///   - sessions: Per-job sessions under `/__sessions/{id}`.
    ///   - linkRewriter: Points upstream links in served bodies at this server, or `nil` to serve bodies as
    ///     written.
    ///   - contract: Checks upstream answers against the API's schemas, or `nil` when they are not checked.
    ///   - templateLimits: The work a request's response templates may do (``TemplateLimits``).
    ///   - adminAccess: The admin token, and whether this server answers `/__admin` at all.
    ///   - shutdown: What `POST /__admin/shutdown` calls, and whether it may.
    ///   - logger: Where to log.
    package init(
        store: StubStore, journal: RequestJournal, memory: MemoryBudget, info: ServerInfo, recordings: Recordings,
        sessions: SessionRegistry, linkRewriter: LinkRewriter?, contract: ContractMonitor?,
        templateLimits: TemplateLimits, adminAccess: AdminAccess, shutdown: ShutdownTrigger, logger: Logger
    ) {
        self.store = store
        self.journal = journal
        self.memory = memory
        self.info = info
        self.recordings = recordings
        self.sessions = sessions
        self.linkRewriter = linkRewriter
        self.contract = contract
        self.templateLimits = templateLimits
        self.adminAccess = adminAccess
        self.shutdown = shutdown
        self.logger = logger
        settings = ServeSettings(info: info)
        store.publish(to: info)
        admin = AdminAPI(
            store: store, journal: journal, info: info, recordings: recordings, sessions: sessions, settings: settings,
            shutdown: shutdown, memory: memory, slowRequests: slowRequests, contract: contract)
    }

    package func handle(_ request: HTTPRequest) -> HTTPReply {
        guard HTTPSyntax.isToken(request.method) else {
            // Nothing could match it, forward it or record it faithfully (a method is a token, RFC 9110 §9.1).
            return .response(
                AdminError(
                    status: 400, title: "Bad request",
                    detail: "the method \(request.method.debugDescription) is not an RFC 9110 token"
                ).response)
        }
        if AdminAPI.isAdmin(request) {
            guard adminAccess.onMainServer else {
                return .response(AdminError.notFound("the admin API is served on its own port (adminPort)").response)
            }
            return handleAdmin(request)
        }
        let timing = ServeTiming()
        if request.path.hasPrefix(Session.pathPrefix + "/") {
            switch sessionScope(of: request) {
            case .found(let inner, let scope): return serve(inner, in: scope, timing: timing)
            case .missing(let refusal): return .response(refusal)
            }
        }
        return serve(request, in: daemonScope, timing: timing)
    }

    /// The daemon's own scope: its stubs, journal, scenarios and near-miss cache; misses may go upstream. What
    /// of it can change (stubs, mode, delay, upstream bases) is read in one lock (``ServerInfo/serving``).
    var daemonScope: ServingScope {
        let serving = info.serving
        return ServingScope(
            stubs: serving.stubs ?? store.index, sharedStubs: nil, scenarios: store.scenarios, journal: journal,
            nearMisses: nearMisses, linkBase: nil, forwardsUpstream: true, serving: serving,
            fixedDelayMilliseconds: serving.fixedDelayMilliseconds, contract: contract)
    }

    /// Serves a request within a scope: the matching stub's answer, else (in the record, record-missing and
    /// proxy modes, where the scope allows) the upstream's, else a 404 naming the near misses. The record mode
    /// forwards every request without matching.
    ///
    /// On a server thread (`onServerThread`) matching and templating get a small share of their budgets
    /// (``serverThreadMatchSteps``, ``serverThreadTemplateSteps``); a request that passes it is served again
    /// on the ``SlowRequestPool`` with the whole budgets, and nothing is journaled or changed before that.
    func serve(
        _ request: HTTPRequest, in scope: ServingScope, timing: ServeTiming, onServerThread: Bool = true
    ) -> HTTPReply {
        let mode = scope.forwardsUpstream ? scope.serving.mode : .replay
        if mode == .record { return forward(request, in: scope, mode: mode, timing: timing) }
        let steps = onServerThread ? StubEngine.serverThreadMatchSteps : MatchBudget.defaultSteps
        let (found, budget) = MatchBudget.measuring(steps: steps, memory: memory) { scope.match(request) }
        if let refused = budget.memoryRefusalResponse {
            logger.warning("memory budget refused parsing the body of \(request.method) \(request.rawURL)")
            scope.journal.recordAnswer(to: request, stub: nil, status: refused.status, timing: timing)
            return .response(refused)
        }
        if let spent = budget.spentBy {
            if onServerThread { return serveOffServerThread(request, in: scope, timing: timing) }
            let response = StubEngine.matchingBudgetSpent(spent)
            logger.warning(
                "matching budget spent: \(request.method) \(request.rawURL) (stub \(spent.stub?.uuidString ?? "?"))")
            scope.journal.recordAnswer(to: request, stub: nil, status: response.status, timing: timing)
            return .response(response)
        }
        if let match = found {
            if let proxy = match.proxy {
                return self.proxy(request, through: proxy, match: match, in: scope, timing: timing)
            }
            var response: HTTPResponse
            if let template = match.template {
                var limits = templateLimits
                if onServerThread { limits.maxSteps = min(limits.maxSteps, StubEngine.serverThreadTemplateSteps) }
                let rendered = template.render(
                    match.response, for: request, serverBaseURL: scope.linkBase ?? info.baseURL, stub: match.stub,
                    limits: limits, givingUp: onServerThread && limits.maxSteps < templateLimits.maxSteps)
                guard let rendered else { return serveOffServerThread(request, in: scope, timing: timing) }
                response =
                    linkRewriter?.rewriteOnce(
                        rendered, to: scope.linkBase, recordedFrom: match.recordedUpstream, serving: scope.serving)
                    ?? rendered
            } else if let linkRewriter {
                // A body file's bytes and their rewritten form are read together.
                response = linkRewriter.rewrite(match, to: scope.linkBase, serving: scope.serving)
                response.isServedAgain = true
            } else {
                response = match.response
                response.isServedAgain = true
            }
            if request.method == "HEAD" { response = response.answeringHead() }
            if scope.fixedDelayMilliseconds > 0 { response.delayMilliseconds += scope.fixedDelayMilliseconds }
            if let rule = match.scenario, let newState = rule.newState { scope.scenarios.set(rule.name, to: newState) }
            scope.journal.recordAnswer(
                to: request, stub: match.stub, status: response.status, timing: timing, response: response)
            return .response(response)
        }
        if mode != .replay { return forward(request, in: scope, mode: mode, timing: timing) }
        logger.info("unmatched \(request.method) \(request.rawURL)")
        let nearMiss = scope.nearMissAnswer(for: request)
        var response = nearMiss.response
        // Kept in the scope's near-miss cache, so a repeated miss gets the same body.
        response.isServedAgain = true
        scope.journal.recordAnswer(
            to: request, stub: nil, status: response.status, timing: timing, response: response)
        return .response(response)
    }

    /// Serves `request` again on a ``SlowRequestPool`` thread with the whole budgets; the server thread is
    /// free meanwhile. With ``slowRequestQueueLimit`` requests waiting already, the answer is a 503 at once:
    ///
    /// ```json
    /// {"status": 503, "error": "too many slow requests", "message": "…"}
    /// ```
    private func serveOffServerThread(_ request: HTTPRequest, in scope: ServingScope, timing: ServeTiming) -> HTTPReply
    {
        .deferred { [self] complete in
            let queued = slowRequests.submit { [self] in
                switch serve(request, in: scope, timing: timing, onServerThread: false) {
                case .response(let response): complete(response)
                case .deferred(let start): start(complete)
                }
            }
            guard !queued else { return }
            var response = HTTPResponse.json(
                .object([
                    "status": .integer(503), "error": .string("too many slow requests"),
                    "message": .string(
                        "\(StubEngine.slowRequestQueueLimit) requests whose matching or templates take long are "
                            + "waiting already; try again"),
                ]), status: 503)
            response.headers.replace(name: "Retry-After", value: "1")
            logger.warning("too many slow requests: \(request.method) \(request.rawURL) answered 503")
            scope.journal.recordAnswer(to: request, stub: nil, status: 503, timing: timing)
            complete(response)
        }
    }

    /// The 503 for a request whose matching spent its ``MatchBudget``:
    ///
    /// ```json
    /// {"status": 503, "error": "matching budget spent", "stub": "…id…", "pattern": "(a+)+$",
    ///  "message": "…"}
    /// ```
    static func matchingBudgetSpent(_ spent: (stub: UUID?, pattern: String)) -> HTTPResponse {
        var members: [String: JSONValue] = [
            "status": .integer(503), "error": .string("matching budget spent"), "pattern": .string(spent.pattern),
            "message": .string(
                "matching this request took more than \(MatchBudget.defaultSteps) steps (regular expressions, "
                    + "XML, XPath and JSON); the stub's pattern costs too much on this request's values"),
        ]
        if let stub = spent.stub { members["stub"] = .string(stub.uuidString.lowercased()) }
        return .json(.object(members), status: 503)
    }

    /// Answers an admin request, after checking ``adminAccess``; what the admin port's server calls.
    package func handleAdmin(_ request: HTTPRequest) -> HTTPReply {
        if let refusal = adminAccess.refusal(for: request) {
            logger.warning(
                "admin request refused: \(request.method) \(request.path) from \(request.clientAddress ?? "?")")
            var response = refusal.response
            if refusal.status == 401 && request.path == AdminAPI.prefix + "/dashboard" {
                // Only the page asks for Basic: a browser then prompts for the token (as the password) and sends
                // it with the page's own requests. API clients keep seeing Bearer alone.
                response.headers.add(name: "WWW-Authenticate", value: #"Basic realm="pokestub admin", charset="UTF-8""#)
            }
            return .response(response)
        }
        return admin.reply(request)
    }
}
