/// What a request is served within: the daemon's stubs, journal and scenarios, or one session's.
///
/// Every request takes the same path through ``StubEngine``; only its scope differs. A session's scope puts
/// its own stubs first and the daemon's after them, keeps its own journal, scenario states and near-miss
/// cache, rewrites upstream links to the session's base URL, and never forwards upstream.
struct ServingScope {
    /// The stubs tried first: the daemon's, or the session's own.
    var stubs: StubIndex
    /// Stubs tried when none of ``stubs`` matches: the daemon's, for a session; `nil` for the daemon.
    var sharedStubs: StubIndex?
    /// Scenario states of this scope (a session keeps its own, for its stubs and the daemon's alike).
    var scenarios: ScenarioStates
    /// Where the serve events go.
    var journal: RequestJournal
    /// The near-miss reports of this scope's recent misses.
    var nearMisses: NearMissCache
    /// Where upstream links in served bodies point, or `nil` for the daemon's base URL.
    var linkBase: String?
    /// Whether a miss may go upstream in the record, record-missing and proxy modes (sessions answer from
    /// stubs only, whatever the daemon's mode).
    var forwardsUpstream: Bool
    /// What the request read of the daemon's facts that can change (mode, upstream bases), in one lock.
    var serving: ServerInfo.Serving
    /// The global delay this scope's stub answers get (``ServeSettings``): the daemon's; 0 for a session.
    var fixedDelayMilliseconds = 0
    /// What holds the API's schemas, whose hints a near-miss answer leads with (``SchemaSet/hints(for:)``), or
    /// `nil`; read only for a miss, so the schemas are not made for a request that matches.
    var contract: ContractMonitor? = nil

    /// The stub that answers `request`, with its response, or `nil`.
    func match(_ request: HTTPRequest) -> StubIndex.Match? {
        stubs.match(request, scenarios: scenarios) ?? sharedStubs?.match(request, scenarios: scenarios)
    }

    /// The near-miss report and closest-stub hint for a request nothing in this scope matched.
    func nearMissAnswer(for request: HTTPRequest) -> NearMissAnswer {
        nearMisses.answer(for: request, in: stubs, and: sharedStubs, schemas: contract?.schemas)
    }
}
