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
        /// The last recording written (or found unchanged) at each mapping path.
        var lastRecordings: [String: LastRecording] = [:]
    }

    /// What was last recorded at a mapping path, so the same exchange again is answered from the stub it
    /// made without parsing, canonicalising, hashing or writing anything.
    private struct LastRecording {
        var exchange: ExchangeSignature
        var id: UUID
        /// The stub's definition when it was made; the stub serving now must still be that one.
        var definition: JSONValue
        var fingerprint: UInt64
        /// The mapping file and the body file as they were right after the write: a file written or replaced
        /// since then (by a snapshot, an editor, `git checkout`) has another identity.
        var files: [(path: String, identity: FileIdentity)]
    }

    /// Everything a recording is made from: the parts of the request the recorder reads, the options, and
    /// the upstream's status, the header fields as recorded (volatile ones such as `Date` dropped), the
    /// content type the body is classified by, and the body (as a digest of the raw bytes). Two exchanges
    /// with the same signature make byte-identical recordings.
    private struct ExchangeSignature: Equatable {
        var method: String
        var rawPath: String
        var rawQuery: String?
        var key: RecordingKey
        var requestBody: ContentDigest
        var options: RecordingOptions
        var status: Int
        var headers: JSONValue
        var contentType: String?
        var body: ContentDigest

        init(_ request: HTTPRequest, _ response: UpstreamResponse, key: RecordingKey, options: RecordingOptions) {
            method = request.method
            rawPath = request.rawPath
            rawQuery = request.rawQuery
            self.key = key
            requestBody = ContentDigest(request.body)
            self.options = options
            status = response.status
            headers = Recorder(options: options).recordedHeaders(response.headers)
            contentType = response.headers["Content-Type"]
            body = ContentDigest(response.body)
        }
    }

    /// A recording made, or found unchanged, and how it compares with the disk.
    private struct Recorded {
        var stub: StubMapping
        var change: RecordingWriter.Change
        var path: String
        /// The fingerprint on disk before this recording (`nil`: no mapping file).
        var original: UInt64?
        var latest: UInt64
        /// Whether the stub of the last recording answered, the upstream having answered the same again.
        var sameAnswer = false
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
            let recorded = try record(request, response, options: options, session: true)
            logger.info(
                "recorded \(request.method) \(request.rawURL) from \(upstream) as \(recorded.path) "
                    + "(\(recorded.sameAnswer ? "unchanged: the same answer, nothing written" : recorded.change.rawValue))"
            )
            return .stub(recorded.stub)
        } catch {
            logger.error("not recorded: \(request.method) \(request.rawURL): \(error)")
            return .proxied(response)
        }
    }

    /// Writes (when persisting) and serves one recording; notes it in the session and lifetime ledgers.
    ///
    /// When the upstream answered exactly what was last recorded at the same path, and the files and the
    /// stub are still the ones that recording made, that stub answers: nothing is parsed, canonicalised,
    /// hashed beyond one pass over the raw body, or written (``unchangedRecording(at:exchange:session:)``).
    ///
    /// - Returns: The stub, how it compares with the disk, and its mapping path.
    private func record(
        _ request: HTTPRequest, _ response: UpstreamResponse, options: RecordingOptions, session: Bool
    ) throws -> Recorded {
        let rootURL = store.root.map { URL(fileURLWithPath: $0) }
        let writer = rootURL.map(RecordingWriter.init(root:))
        let persist = options.persist && writer != nil
        let key = RecordingKey(request, options: options)
        let exchange = persist ? ExchangeSignature(request, response, key: key, options: options) : nil
        if let exchange,
            let again = unchangedRecording(
                at: RecordingFileName(key: key).mappingPath, exchange: exchange, session: session)
        {
            return again
        }
        let recording = Recorder(options: options).recording(of: request, response: response)
        let path = recording.fileName.mappingPath
        let mappingData = recording.mappingData
        let latest = RecordingWriter.fingerprint(of: recording, mappingData: mappingData)
        typealias Written = (
            original: UInt64?, change: RecordingWriter.Change, files: [(path: String, identity: FileIdentity)]?
        )
        let written: Written = try writeLock.withLock { _ in
            let original = writer?.fingerprintOnDisk(of: recording)
            if persist, let writer {
                let change = try writer.write(recording, mappingData: mappingData, before: original, after: latest)
                return (original, change, writer.fileIdentities(of: recording))
            }
            return (original, original == nil ? .new : (original == latest ? .unchanged : .changed), nil)
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
                state.session.note(path, original: written.original, latest: latest, mapping: stub.definition)
            }
            state.lifetime.note(path, original: written.original, latest: latest, mapping: stub.definition)
            if let exchange, let files = written.files {
                state.lastRecordings[path] = LastRecording(
                    exchange: exchange, id: stub.id, definition: stub.definition, fingerprint: latest, files: files)
            } else {
                state.lastRecordings[path] = nil
            }
        }
        return Recorded(stub: stub, change: written.change, path: path, original: written.original, latest: latest)
    }

    /// The recording at `path` when `exchange` is exactly what made it, its files have not been written or
    /// replaced since, and its stub still serves; noted in the ledgers as unchanged.
    ///
    /// The files are checked by identity (device, inode, size, modification and change times) rather than
    /// read back: an atomic write replaces the inode, and any other write changes the times.
    private func unchangedRecording(at path: String, exchange: ExchangeSignature, session: Bool) -> Recorded? {
        guard let last = state.withLock({ $0.lastRecordings[path] }), last.exchange == exchange,
            last.files.allSatisfy({ FileIdentity(path: $0.path) == $0.identity }),
            let stub = store.index.stub(id: last.id), stub.definition == last.definition
        else { return nil }
        // The files are what this recording wrote or found, so what is on disk is its fingerprint.
        let fingerprint = last.fingerprint
        state.withLock { state in
            if session && state.status == .recording {
                state.session.note(path, original: fingerprint, latest: fingerprint, mapping: stub.definition)
            }
            state.lifetime.note(path, original: fingerprint, latest: fingerprint, mapping: stub.definition)
        }
        return Recorded(
            stub: stub, change: .unchanged, path: path, original: fingerprint, latest: fingerprint, sameAnswer: true)
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
            do {
                let recorded = try record(exchange.request, exchange.response, options: options, session: false)
                ledger.note(
                    recorded.path, original: recorded.original, latest: recorded.latest,
                    mapping: recorded.stub.definition)
            } catch {
                logger.error("snapshot: not recorded: \(exchange.request.method) \(exchange.request.rawURL): \(error)")
            }
        }
        return (ledger.orderedMappings, ledger.report)
    }
}
