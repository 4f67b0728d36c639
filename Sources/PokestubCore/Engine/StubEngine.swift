import Foundation
import Synchronization

/// The product behind the socket: answers each request from the stubs, journals it, and hands admin
/// requests to the ``AdminAPI``.
///
/// It is the ``HTTPHandler`` the server calls; it does no I/O of its own on the request path (matching
/// reads an immutable ``StubIndex``; the journal append is one `Mutex`).
public final class StubEngine: HTTPHandler {
    /// The stubs.
    public let store: StubStore
    /// The request journal.
    public let journal: RequestJournal
    /// The admin API.
    public let admin: AdminAPI
    /// The serve mode now (the configured one, or a record mode started through the admin API).
    public var mode: ServeMode { info.mode }
    /// Facts about the running server (base URL, mode, start time).
    public let info: ServerInfo
    /// Upstream calls, recordings and the state of `/__admin/recordings/*`.
    public let recordings: RecordingController
    /// Points upstream links in served bodies at this server, or `nil` when `rewriteUpstreamLinks` is off.
    public let linkRewriter: LinkRewriter?
    /// Per-job sessions under `/__sessions/{id}`.
    public let sessions: SessionRegistry
    /// Who may use the admin API, and whether this server answers it.
    public let adminAccess: AdminAccess
    private let nearMisses = NearMissCache()
    private let logger: Logger

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - store: The stubs to serve.
    ///   - journalCapacity: The most serve events kept (0 turns the journal off).
    ///   - journalMaxBodyBytes: The most request-body bytes the journal keeps; older events go first beyond it.
    ///   - mode: The serve mode. Only ``ServeMode/replay`` answers without an upstream.
    ///   - upstream: The upstream base URL, e.g. `https://pokeapi.co` (config `upstream`).
    ///   - upstreamClient: Sends requests upstream; without one, forwarded requests get 502.
    ///   - recording: Redaction and body placement for recordings.
    ///   - rewriteUpstreamLinks: Whether links to the upstream in served bodies point at this server (see
    ///     ``LinkRewriter``). Off unless asked for, so an embedded engine serves stub bodies exactly as written;
    ///     `pokestub serve` turns it on from the config key `rewriteUpstreamLinks`, whose default is `true`.
    ///   - sessionLimits: Limits of `/__admin/sessions`.
    ///   - adminAccess: The admin token, and whether this server answers `/__admin` at all.
    ///   - logger: Where to log.
    public init(
        store: StubStore, journalCapacity: Int, journalMaxBodyBytes: Int = 64 << 20, mode: ServeMode = .replay,
        upstream: String = "https://pokeapi.co",
        upstreamClient: (any UpstreamClient)? = nil, recording: RecordingOptions = RecordingOptions(),
        rewriteUpstreamLinks: Bool = false, sessionLimits: SessionLimits = SessionLimits(),
        adminAccess: AdminAccess = AdminAccess(), logger: Logger = .disabled
    ) {
        self.adminAccess = adminAccess
        self.store = store
        self.logger = logger
        journal = RequestJournal(capacity: journalCapacity, maxBodyBytes: journalMaxBodyBytes)
        info = ServerInfo(mode: mode)
        linkRewriter =
            rewriteUpstreamLinks ? LinkRewriter(upstreamBases: [upstream, "https://pokeapi.co"], info: info) : nil
        recordings = RecordingController(
            store: store, info: info, upstream: upstream, client: upstreamClient, options: recording,
            rewriter: linkRewriter, logger: logger)
        sessions = SessionRegistry(limits: sessionLimits, info: info, bodyFilesRoot: store.root)
        admin = AdminAPI(store: store, journal: journal, info: info, recordings: recordings, sessions: sessions)
    }

    public func handle(_ request: HTTPRequest) -> HTTPReply {
        if AdminAPI.isAdmin(request) {
            guard adminAccess.onMainServer else {
                return .response(AdminError.notFound("the admin API is served on its own port (adminPort)").response)
            }
            return handleAdmin(request)
        }
        if request.path.hasPrefix(Session.pathPrefix + "/") {
            return handleInSession(request)
        }
        let started = ContinuousClock.now
        let receivedAt = Date()
        let mode = info.mode
        if mode == .record {
            return forward(request, record: recordings.shouldRecord(request), receivedAt: receivedAt, started: started)
        }
        let index = store.index
        let response: HTTPResponse
        var reference: ServeEvent.StubReference?
        if let match = index.match(request, scenarios: store.scenarios) {
            response = linkRewriter?.rewrite(match.response) ?? match.response
            reference = match.stub
            if let rule = match.scenario, let newState = rule.newState { store.scenarios.set(rule.name, to: newState) }
        } else if mode != .replay {
            let record = mode == .recordMissing && recordings.shouldRecord(request)
            return forward(request, record: record, receivedAt: receivedAt, started: started)
        } else {
            response = .text(nearMisses.report(for: request, in: index), status: 404)
            logger.info("unmatched \(request.method) \(request.rawURL)")
        }
        StubEngine.journal(
            request, in: journal, stub: reference, status: response.status, since: started, at: receivedAt)
        return .response(response)
    }

    /// Answers an admin request, after checking ``adminAccess``; what the admin port's server calls.
    public func handleAdmin(_ request: HTTPRequest) -> HTTPReply {
        if let refusal = adminAccess.refusal(for: request) {
            logger.warning(
                "admin request refused: \(request.method) \(request.path) from \(request.clientAddress ?? "?")")
            return .response(refusal.response)
        }
        return admin.reply(request)
    }

    /// Appends a serve event, timed from `started`.
    static func journal(
        _ request: HTTPRequest, in journal: RequestJournal, stub: ServeEvent.StubReference?, status: Int,
        since started: ContinuousClock.Instant, at receivedAt: Date
    ) {
        let elapsed = ContinuousClock.now - started
        journal.append(
            ServeEvent(
                id: journal.nextEventID(), receivedAt: receivedAt, request: request, stub: stub, responseStatus: status,
                durationMilliseconds: Double(elapsed.components.attoseconds) / 1e15
                    + Double(elapsed.components.seconds) * 1000))
    }
}
