import Foundation

/// Everything behind the record, record-missing and proxy modes and `/__admin/recordings/*`, composed of one
/// part per job:
///
/// - ``UpstreamForwarder``: one upstream call for identical requests in flight;
/// - ``RecordingPersistence``: the recording written and its stub added to the store, or the last one reused
///   when the upstream answered the same;
/// - ``ProxiedExchanges``: answers passed on unrecorded, kept for a snapshot;
/// - ``RecordingRun``: whether a recording run is going, from where, with which options.
///
/// A request goes one way: the engine asks for a ``ForwardPlan`` (its recording key computed once), hands the
/// plan to ``forward(_:plan:eventID:completion:)``, and gets a ``ForwardOutcome`` back.
package final class Recordings: Sendable {
    /// Holds the current mode, which starting and stopping a run changes.
    let info: ServerInfo
    private let forwarder: UpstreamForwarder
    private let persistence: RecordingPersistence
    private let proxied = ProxiedExchanges()
    private let run: RecordingRun
    private let rewriter: LinkRewriter?
    private let logger: Logger

    /// How one request is sent upstream: decided once, when the engine forwards it.
    package struct ForwardPlan: Sendable {
        /// The upstream base URL it goes to.
        package var upstream: String
        /// Redaction, captured headers, persistence and filter in force.
        var options: RecordingOptions
        /// The request's recording key under ``options``: what identical requests in flight share, and the
        /// recording's file name.
        var key: RecordingKey
        /// Whether the answer is recorded (else passed on and kept for a snapshot).
        package var records: Bool
        /// Whether to look for a matching stub again once this request leads (record-missing: a stub may have
        /// been recorded between this request's miss and its turn).
        var recheck: Bool
    }

    /// Creates the recordings of a daemon.
    ///
    /// - Parameters:
    ///   - store: Where recordings are added and, through its root, written.
    ///   - info: The server facts holding the mode; in a record mode a run goes from the start.
    ///   - upstream: The configured upstream base URL, e.g. `https://pokeapi.co`.
    ///   - client: The upstream client; without one every forwarded request fails with 502.
    ///   - options: Redaction and body placement.
    ///   - rewriter: The link rewriter to tell about a run's own `targetBaseUrl`, if links are rewritten.
    ///   - logger: Where recordings and upstream failures are logged.
    package init(
        store: StubStore, info: ServerInfo, upstream: String, client: (any UpstreamClient)?,
        options: RecordingOptions = RecordingOptions(), rewriter: LinkRewriter? = nil, logger: Logger = .disabled
    ) {
        self.info = info
        self.rewriter = rewriter
        self.logger = logger
        forwarder = UpstreamForwarder(client: client)
        persistence = RecordingPersistence(store: store)
        run = RecordingRun(
            upstream: upstream, options: options, recording: info.mode == .record || info.mode == .recordMissing)
    }

    /// The upstream requests go to now.
    package var upstream: String { run.settings.upstream }

    /// The recording options now: the configured ones, or those of a run started through the admin API.
    package var options: RecordingOptions { run.settings.options }

    /// Whether a recording run is going.
    package var status: RecordingStatus { run.status }

    /// New, unchanged and changed stubs since the daemon started: what pokestub logs when it stops.
    package var lifetimeReport: RecordingReport { persistence.lifetimeReport }

    /// How a request the engine forwards in `mode` is sent: recorded in the record modes when the run's filter
    /// takes it, else passed on.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - mode: The serve mode it is forwarded in.
    package func plan(for request: HTTPRequest, in mode: ServeMode) -> ForwardPlan {
        let settings = run.settings
        let records = (mode == .record || mode == .recordMissing) && (settings.options.filter?.matches(request) ?? true)
        return ForwardPlan(
            upstream: settings.upstream, options: settings.options,
            key: RecordingKey(request, options: settings.options), records: records,
            recheck: records && mode == .recordMissing)
    }

    /// Sends a request upstream through the same client, recorded nowhere and kept for no snapshot: what a stub
    /// with `proxyBaseUrl` does.
    ///
    /// - Parameters:
    ///   - request: The request for the upstream (``StubProxy/upstreamRequest(for:)``).
    ///   - completion: Called once, on an upstream client thread, with the upstream's answer or the failure.
    package func send(
        _ request: UpstreamRequest, completion: @escaping @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void
    ) {
        forwarder.send(request) { [logger] result in
            if case .failure(let error) = result {
                logger.warning("upstream \(error.kind.rawValue): \(request.method) \(error.url): \(error.message)")
            }
            completion(result)
        }
    }

    /// Sends a request upstream as planned, or joins an identical one in flight, and records the answer.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - plan: From ``plan(for:in:)``.
    ///   - eventID: The serve event's id, to find a proxied exchange again for a snapshot.
    ///   - completion: Called once, on an upstream client thread, with the outcome.
    package func forward(
        _ request: HTTPRequest, plan: ForwardPlan, eventID: UUID,
        completion: @escaping @Sendable (ForwardOutcome) -> Void
    ) {
        let store = persistence.store
        forwarder.forward(
            request, to: plan.upstream, flight: UpstreamForwarder.Flight(record: plan.records, key: plan.key),
            shortcut: { plan.recheck ? store.index.bestMatch(for: request).map(ForwardOutcome.stub) : nil },
            settle: { [self] result in
                switch result {
                case .failure(let error):
                    logger.warning("upstream \(error.kind.rawValue): \(request.method) \(error.url): \(error.message)")
                    return .failed(error)
                case .success(let response) where plan.records:
                    return record(request, response, plan: plan)
                case .success(let response):
                    proxied.keep(
                        ProxiedExchanges.Exchange(
                            eventID: eventID, request: request, response: response, upstream: plan.upstream))
                    return .proxied(response)
                }
            }, completion: completion)
    }

    private func record(_ request: HTTPRequest, _ response: UpstreamResponse, plan: ForwardPlan) -> ForwardOutcome {
        do {
            let recorded = try persistence.record(
                request, response, key: plan.key, options: plan.options, upstream: plan.upstream)
            run.note(recorded)
            logger.info(
                "recorded \(request.method) \(request.rawURL) from \(plan.upstream) as \(recorded.path) "
                    + "(\(recorded.sameAnswer ? "unchanged: the same answer, nothing written" : recorded.change.rawValue))"
            )
            return .recorded(recorded.stub, response)
        } catch {
            logger.error("not recorded: \(request.method) \(request.rawURL): \(error)")
            return .proxied(response)
        }
    }

    /// Starts a recording run (`POST /__admin/recordings/start`) and switches to its mode.
    ///
    /// - Parameter spec: Target, filters, captured headers, persistence and mode.
    /// - Throws: ``RecordingRunError`` when a run is already going or there is no upstream client.
    package func start(_ spec: RecordSpec) throws(RecordingRunError) {
        guard forwarder.hasClient else { throw .noUpstreamClient }
        let target = try run.start(spec, modeNow: info.mode)
        rewriter?.addUpstreamBase(target)
        info.mode = spec.mode
        logger.notice("recording started from \(target) (mode \(spec.mode.rawValue))")
    }

    /// Stops the run (`POST /__admin/recordings/stop`) and goes back to the mode before it (replay when the
    /// daemon started in a record mode).
    ///
    /// - Returns: The mappings recorded since the start, in the order first recorded, and the report.
    /// - Throws: ``RecordingRunError/notRecording``.
    package func stop() throws(RecordingRunError) -> (mappings: [JSONValue], report: RecordingReport) {
        let (ledger, modeBefore) = try run.stop()
        info.mode = modeBefore
        logger.notice("recording stopped: \(ledger.report)")
        return (ledger.orderedMappings, ledger.report)
    }

    /// Turns proxied exchanges the journal still holds into stubs (`POST /__admin/recordings/snapshot`).
    ///
    /// - Parameters:
    ///   - events: The journal's serve events.
    ///   - spec: Filters (including `ids`), captured headers and persistence.
    /// - Returns: The mappings made and how they compare with the disk.
    package func snapshot(events: [ServeEvent], spec: RecordSpec) -> (mappings: [JSONValue], report: RecordingReport) {
        var options = run.configuredOptions
        options.capturedHeaders = spec.capturedHeaders
        options.persist = spec.persist
        var ledger = RecordingLedger()
        for exchange in proxied.take(journaled: Set(events.map(\.id)), matching: spec) {
            do {
                let key = RecordingKey(exchange.request, options: options)
                ledger.note(
                    try persistence.record(
                        exchange.request, exchange.response, key: key, options: options, upstream: exchange.upstream))
            } catch {
                logger.error("snapshot: not recorded: \(exchange.request.method) \(exchange.request.rawURL): \(error)")
            }
        }
        return (ledger.orderedMappings, ledger.report)
    }
}
