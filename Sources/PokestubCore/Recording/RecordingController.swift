import Foundation
import Synchronization

/// Sends requests upstream for the record, record-missing and proxy modes, writes recordings, and keeps the
/// state the admin API's `/__admin/recordings/*` reports.
///
/// - Concurrent requests with the same ``RecordingKey`` share one upstream call: the first becomes the
///   leader, later ones wait for its outcome, so identical misses make one call and one file.
/// - A recording is added to the ``StubStore`` before the leader lets go, so a request arriving afterwards
///   matches the new stub (record-missing re-checks the stubs once it leads, closing the gap between its
///   own miss and a leader that just finished).
/// - Proxied exchanges (not recorded) are kept, bounded, for `POST /__admin/recordings/snapshot`.
public final class RecordingController: Sendable {
    /// The stubs recordings are added to; its root is where they are written.
    public let store: StubStore
    /// Holds the current mode.
    public let info: ServerInfo
    private let client: (any UpstreamClient)?
    private let rewriter: LinkRewriter?
    private let logger: Logger
    private let state: Mutex<State>
    /// Serializes file writes and the bookkeeping of what was on disk.
    private let writeLock = Mutex(())

    /// The most proxied exchanges kept for snapshots, and the most body bytes they may hold.
    static let proxiedLimit = (count: 1_000, bytes: 64 << 20)

    /// Whether a recording is running, as WireMock's `GET /__admin/recordings/status` says it.
    public enum Status: String, Sendable {
        /// Recording (started through the admin API, or the server runs in a record mode).
        case recording = "Recording"
        /// A recording ran and was stopped.
        case stopped = "Stopped"
        /// No recording ran yet.
        case neverStarted = "NeverStarted"
    }

    /// What became of a forwarded request.
    public enum Outcome: Sendable {
        /// A stub answers it: one just recorded, or one that appeared while the request waited.
        case stub(StubMapping)
        /// The upstream's response, not recorded (proxy mode, a filtered request, or a failed write).
        case proxied(UpstreamResponse)
        /// No response: answer 502 or 504.
        case failed(UpstreamError)
    }

    private struct State {
        let configuredUpstream: String
        var upstream: String
        let baseOptions: RecordingOptions
        var options: RecordingOptions
        var status: Status
        var modeBeforeRecording = ServeMode.replay
        var session = Ledger()
        var lifetime = Ledger()
        var inFlight: [Flight: [@Sendable (Outcome) -> Void]] = [:]
        var proxied: [ProxiedExchange] = []
        var proxiedBytes = 0
    }

    private struct Flight: Hashable {
        var record: Bool
        var key: RecordingKey
    }

    private struct ProxiedExchange {
        var eventID: UUID
        var request: HTTPRequest
        var response: UpstreamResponse
    }

    /// What was recorded in a span of time, and how each file compared with the disk at the start of it.
    private struct Ledger {
        /// Mapping path to the fingerprint on disk before the first write in this span (`nil`: absent).
        var original: [String: UInt64?] = [:]
        var latest: [String: UInt64] = [:]
        var mappings: [String: JSONValue] = [:]
        var order: [String] = []

        mutating func note(_ path: String, original fingerprint: UInt64?, latest: UInt64, mapping: JSONValue) {
            if original[path] == nil {
                original[path] = .some(fingerprint)
                order.append(path)
            }
            self.latest[path] = latest
            mappings[path] = mapping
        }

        var report: RecordingReport {
            var report = RecordingReport()
            for path in order {
                switch original[path] ?? nil {
                case nil: report.new += 1
                case let before? where before == latest[path]: report.unchanged += 1
                default: report.changed += 1
                }
            }
            return report
        }

        var orderedMappings: [JSONValue] { order.compactMap { mappings[$0] } }
    }

    /// Creates a controller.
    ///
    /// - Parameters:
    ///   - store: Where recordings are added and, through its root, written.
    ///   - info: The server facts holding the mode; when it is a record mode, a recording runs from the start.
    ///   - upstream: The configured upstream base URL, e.g. `https://pokeapi.co`.
    ///   - client: The upstream client; without one every forwarded request fails with 502.
    ///   - options: Redaction and body placement.
    ///   - rewriter: The link rewriter to tell about run-time `targetBaseUrl`s, if links are rewritten.
    ///   - logger: Where recordings and upstream failures are logged.
    public init(
        store: StubStore, info: ServerInfo, upstream: String, client: (any UpstreamClient)?,
        options: RecordingOptions = RecordingOptions(), rewriter: LinkRewriter? = nil, logger: Logger = .disabled
    ) {
        self.store = store
        self.info = info
        self.client = client
        self.rewriter = rewriter
        self.logger = logger
        let recording = info.mode == .record || info.mode == .recordMissing
        state = Mutex(
            State(
                configuredUpstream: upstream, upstream: upstream, baseOptions: options, options: options,
                status: recording ? .recording : .neverStarted))
    }

    /// The upstream requests go to now.
    public var upstream: String { state.withLock { $0.upstream } }

    /// Whether a recording is running.
    public var status: Status { state.withLock { $0.status } }

    /// New, unchanged and changed stubs since the server started, compared with the disk as it was before
    /// each file's first write: what pokestub logs when it stops.
    public var lifetimeReport: RecordingReport { state.withLock { $0.lifetime.report } }

    /// Whether the running recording takes this request (its `filters`).
    ///
    /// - Parameter request: The request.
    /// - Returns: `true` when there is no filter or the request matches it.
    public func shouldRecord(_ request: HTTPRequest) -> Bool {
        guard let filter = state.withLock({ $0.options.filter }) else { return true }
        return filter.matches(request)
    }

    // MARK: - Forwarding

    /// Sends a request upstream, or joins an identical one in flight, and records the answer.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - record: Whether to record the answer (record modes) or only pass it on (proxy).
    ///   - recheck: Whether to look for a matching stub again once this request leads (record-missing).
    ///   - eventID: The serve event's id, to find the exchange again for a snapshot.
    ///   - completion: Called once, on an upstream client thread, with the outcome.
    public func forward(
        _ request: HTTPRequest, record: Bool, recheck: Bool, eventID: UUID,
        completion: @escaping @Sendable (Outcome) -> Void
    ) {
        let (options, upstream) = state.withLock { ($0.options, $0.upstream) }
        guard let client else {
            completion(
                .failed(
                    UpstreamError(
                        kind: .failed, url: upstream + request.rawURL,
                        message: "this server has no upstream client")))
            return
        }
        let flight = Flight(record: record, key: RecordingKey(request, options: options))
        let leads: Bool = state.withLock { state in
            if state.inFlight[flight] != nil {
                state.inFlight[flight]!.append(completion)
                return false
            }
            state.inFlight[flight] = [completion]
            return true
        }
        guard leads else { return }
        if recheck, let stub = store.index.bestMatch(for: request) {
            finish(flight, .stub(stub))
            return
        }
        let upstreamRequest = UpstreamRequest(forwarding: request, to: upstream)
        client.send(upstreamRequest) { [self] result in
            let outcome: Outcome
            switch result {
            case .failure(let error):
                logger.warning("upstream \(error.kind.rawValue): \(request.method) \(error.url): \(error.message)")
                outcome = .failed(error)
            case .success(let response) where record:
                outcome = recordOrProxy(request, response, options: options, upstream: upstream)
            case .success(let response):
                keepProxied(ProxiedExchange(eventID: eventID, request: request, response: response))
                outcome = .proxied(response)
            }
            finish(flight, outcome)
        }
    }

    private func finish(_ flight: Flight, _ outcome: Outcome) {
        let waiters = state.withLock { $0.inFlight.removeValue(forKey: flight) ?? [] }
        for waiter in waiters { waiter(outcome) }
    }

    private func recordOrProxy(
        _ request: HTTPRequest, _ response: UpstreamResponse, options: RecordingOptions, upstream: String
    ) -> Outcome {
        do {
            let (stub, change, path) = try record(request, response, options: options, session: true)
            logger.info("recorded \(request.method) \(request.rawURL) from \(upstream) as \(path) (\(change.rawValue))")
            return .stub(stub)
        } catch {
            logger.error("not recorded: \(request.method) \(request.rawURL): \(error)")
            return .proxied(response)
        }
    }

    /// Writes (when persisting) and serves one recording; notes it in the session and lifetime ledgers.
    ///
    /// - Returns: The new stub, how it compares with the disk, and its mapping path.
    private func record(
        _ request: HTTPRequest, _ response: UpstreamResponse, options: RecordingOptions, session: Bool
    ) throws -> (StubMapping, RecordingWriter.Change, String) {
        let recording = Recorder(options: options).recording(of: request, response: response)
        let path = recording.fileName.mappingPath
        let rootURL = store.root.map { URL(fileURLWithPath: $0) }
        let writer = rootURL.map(RecordingWriter.init(root:))
        let latest = RecordingWriter.fingerprint(of: recording)
        let persist = options.persist && writer != nil
        let (original, change): (UInt64?, RecordingWriter.Change) = try writeLock.withLock { _ in
            let original = writer?.fingerprintOnDisk(of: recording)
            if persist, let writer { return (original, try writer.write(recording)) }
            return (original, original == nil ? .new : (original == latest ? .unchanged : .changed))
        }
        let stub: StubMapping
        let mapping = persist ? recording.mapping : recording.inlineMapping
        do {
            stub = try StubMapping(
                json: mapping, defaultID: recording.id, source: persist ? .file(path) : .runtime,
                bodyFiles: BodyFileStore(root: persist ? rootURL?.appendingPathComponent("__files") : nil))
        }
        store.add(stub)
        state.withLock { state in
            if session && state.status == .recording {
                state.session.note(path, original: original, latest: latest, mapping: stub.definition)
            }
            state.lifetime.note(path, original: original, latest: latest, mapping: stub.definition)
        }
        return (stub, change, path)
    }

    private func keepProxied(_ exchange: ProxiedExchange) {
        state.withLock { state in
            state.proxied.append(exchange)
            state.proxiedBytes += exchange.response.body.count + exchange.request.body.count
            while state.proxied.count > RecordingController.proxiedLimit.count
                || (state.proxiedBytes > RecordingController.proxiedLimit.bytes && !state.proxied.isEmpty)
            {
                let dropped = state.proxied.removeFirst()
                state.proxiedBytes -= dropped.response.body.count + dropped.request.body.count
            }
        }
    }

    // MARK: - Admin operations

    /// Starts a recording (`POST /__admin/recordings/start`).
    ///
    /// - Parameter spec: Target, filters, captured headers, persistence and mode.
    /// - Throws: ``AdminError`` 409 when a recording is already running or there is no upstream client.
    public func start(_ spec: RecordSpec) throws(AdminError) {
        guard client != nil else {
            throw AdminError(status: 409, title: "Cannot record", detail: "this server has no upstream client")
        }
        let target: String = try state.withLock { (state: inout State) throws(AdminError) -> String in
            guard state.status != .recording else {
                throw AdminError(
                    status: 409, title: "Already recording",
                    detail: "a recording from \(state.upstream) is running; stop it first")
            }
            state.modeBeforeRecording = info.mode
            state.upstream = spec.targetBaseURL ?? state.configuredUpstream
            var options = state.baseOptions
            options.capturedHeaders = spec.capturedHeaders
            options.persist = spec.persist
            options.filter = spec.filter
            state.options = options
            state.session = Ledger()
            state.status = .recording
            return state.upstream
        }
        rewriter?.addUpstreamBase(target)
        info.mode = spec.mode
        logger.notice("recording started from \(target) (mode \(spec.mode.rawValue))")
    }

    /// Stops the recording (`POST /__admin/recordings/stop`) and goes back to the mode before it (replay
    /// when the server started in a record mode).
    ///
    /// - Returns: The mappings recorded since the start, in the order first recorded, and the report.
    /// - Throws: ``AdminError`` 409 when no recording is running.
    public func stop() throws(AdminError) -> (mappings: [JSONValue], report: RecordingReport) {
        let (session, mode) = try state.withLock {
            (state: inout State) throws(AdminError) -> (Ledger, ServeMode) in
            guard state.status == .recording else {
                throw AdminError(status: 409, title: "Not recording", detail: "no recording is running")
            }
            state.status = .stopped
            state.upstream = state.configuredUpstream
            state.options = state.baseOptions
            let session = state.session
            state.session = Ledger()
            return (session, state.modeBeforeRecording)
        }
        info.mode = mode
        let report = session.report
        logger.notice("recording stopped: \(report)")
        return (session.orderedMappings, report)
    }

    /// Turns proxied exchanges the journal still holds into stubs (`POST /__admin/recordings/snapshot`).
    ///
    /// - Parameters:
    ///   - events: The journal's serve events.
    ///   - spec: Filters (including `ids`), captured headers and persistence.
    /// - Returns: The mappings made and how they compare with the disk.
    public func snapshot(events: [ServeEvent], spec: RecordSpec) -> (mappings: [JSONValue], report: RecordingReport) {
        let journaled = Set(events.map(\.id))
        let exchanges: [ProxiedExchange] = state.withLock { state in
            let chosen = state.proxied.filter { exchange in
                journaled.contains(exchange.eventID) && (spec.eventIDs?.contains(exchange.eventID) ?? true)
                    && (spec.filter?.matches(exchange.request) ?? true)
            }
            let taken = Set(chosen.map(\.eventID))
            state.proxied.removeAll { taken.contains($0.eventID) }
            state.proxiedBytes = state.proxied.reduce(0) { $0 + $1.response.body.count + $1.request.body.count }
            return chosen
        }
        var options = state.withLock { $0.baseOptions }
        options.capturedHeaders = spec.capturedHeaders
        options.persist = spec.persist
        var ledger = Ledger()
        for exchange in exchanges {
            let recording = Recorder(options: options).recording(of: exchange.request, response: exchange.response)
            let before = store.root.flatMap {
                RecordingWriter(root: URL(fileURLWithPath: $0)).fingerprintOnDisk(of: recording)
            }
            do {
                let (stub, _, path) = try record(exchange.request, exchange.response, options: options, session: false)
                ledger.note(
                    path, original: before, latest: RecordingWriter.fingerprint(of: recording), mapping: stub.definition
                )
            } catch {
                logger.error("snapshot: not recorded: \(exchange.request.method) \(exchange.request.rawURL): \(error)")
            }
        }
        return (ledger.orderedMappings, ledger.report)
    }
}
