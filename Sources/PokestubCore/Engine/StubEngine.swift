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
    /// The serve mode.
    public let mode: ServeMode
    /// Facts about the running server (base URL, mode, start time).
    public let info: ServerInfo
    private let logger: Logger

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - store: The stubs to serve.
    ///   - journalCapacity: The most serve events kept (0 turns the journal off).
    ///   - mode: The serve mode. Only ``ServeMode/replay`` answers without an upstream.
    ///   - logger: Where to log.
    public init(store: StubStore, journalCapacity: Int, mode: ServeMode = .replay, logger: Logger = .disabled) {
        self.store = store
        self.mode = mode
        self.logger = logger
        journal = RequestJournal(capacity: journalCapacity)
        info = ServerInfo(mode: mode)
        admin = AdminAPI(store: store, journal: journal, info: info)
    }

    public func handle(_ request: HTTPRequest) -> HTTPReply {
        if AdminAPI.isAdmin(request) {
            return .response(admin.handle(request))
        }
        let started = ContinuousClock.now
        let receivedAt = Date()
        let index = store.index
        let response: HTTPResponse
        var reference: ServeEvent.StubReference?
        if let match = index.match(request) {
            response = match.response
            reference = match.stub
        } else {
            let nearMisses = NearMiss.closest(to: request, in: index)
            response = .text(NearMiss.report(for: request, nearMisses: nearMisses), status: 404)
            logger.info("unmatched \(request.method) \(request.rawURL)")
        }
        let elapsed = ContinuousClock.now - started
        journal.append(
            ServeEvent(
                id: journal.nextEventID(), receivedAt: receivedAt, request: request, stub: reference,
                responseStatus: response.status,
                durationMilliseconds: Double(elapsed.components.attoseconds) / 1e15
                    + Double(elapsed.components.seconds) * 1000))
        return .response(response)
    }
}
