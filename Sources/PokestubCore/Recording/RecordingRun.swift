import PokestubLocking

/// The recording run behind `/__admin/recordings/start`, `/stop` and `/status`: whether one is going, from
/// which upstream, with which options, and what it recorded so far.
///
/// A daemon started in the record or record-missing mode is recording from the start. Starting a run sets
/// the upstream, captured headers, persistence and filter for its length; stopping it restores the
/// configured ones. Changing the serve mode is the caller's part (``Recordings``).
final class RecordingRun: Sendable {
    /// What forwarding reads of the run for one request.
    struct Settings: Sendable {
        /// Where requests go.
        var upstream: String
        /// Redaction, captured headers, persistence and filter.
        var options: RecordingOptions
    }

    private struct State {
        let configured: Settings
        var current: Settings
        var status: RecordingStatus
        var modeBefore = ServeMode.replay
        var ledger = RecordingLedger()
    }

    private let state: Locked<State>

    /// Creates the run state.
    ///
    /// - Parameters:
    ///   - upstream: The configured upstream base URL.
    ///   - options: The configured recording options.
    ///   - recording: Whether the daemon records from the start (it was started in a record mode).
    init(upstream: String, options: RecordingOptions, recording: Bool) {
        let configured = Settings(upstream: upstream, options: options)
        state = Locked(
            State(configured: configured, current: configured, status: recording ? .recording : .neverStarted))
    }

    /// The upstream and options in force now.
    var settings: Settings { state.withLock { $0.current } }

    /// The configured options, before any run's changes.
    var configuredOptions: RecordingOptions { state.withLock { $0.configured.options } }

    /// Whether a run is going.
    var status: RecordingStatus { state.withLock { $0.status } }

    /// Starts a run.
    ///
    /// - Parameters:
    ///   - spec: Target, filters, captured headers and persistence.
    ///   - mode: The serve mode now, restored by ``stop()``.
    /// - Returns: The upstream the run records from.
    /// - Throws: ``RecordingRunError/alreadyRecording(upstream:)``.
    func start(_ spec: RecordSpec, modeNow mode: ServeMode) throws(RecordingRunError) -> String {
        try state.withLock { (state: inout State) throws(RecordingRunError) -> String in
            guard state.status != .recording else { throw .alreadyRecording(upstream: state.current.upstream) }
            var options = state.configured.options
            options.capturedHeaders = spec.capturedHeaders
            options.persist = spec.persist
            options.filter = spec.filter
            state.current = Settings(upstream: spec.targetBaseURL ?? state.configured.upstream, options: options)
            state.modeBefore = mode
            state.ledger = RecordingLedger()
            state.status = .recording
            return state.current.upstream
        }
    }

    /// Stops the run and restores the configured upstream and options.
    ///
    /// - Returns: What the run recorded, and the mode from before it started.
    /// - Throws: ``RecordingRunError/notRecording``.
    func stop() throws(RecordingRunError) -> (ledger: RecordingLedger, modeBefore: ServeMode) {
        try state.withLock { (state: inout State) throws(RecordingRunError) -> (RecordingLedger, ServeMode) in
            guard state.status == .recording else { throw .notRecording }
            state.status = .stopped
            state.current = state.configured
            defer { state.ledger = RecordingLedger() }
            return (state.ledger, state.modeBefore)
        }
    }

    /// Notes a recording in the run's ledger, when a run is going.
    func note(_ recorded: RecordedStub) {
        state.withLock { state in
            if state.status == .recording { state.ledger.note(recorded) }
        }
    }
}
