import Foundation

extension StubEngine {
    /// An engine with default parts around `store`: no upstream client, PokeAPI's schemas, the default
    /// journal limits. For this package's tests, which serve stubs without a
    /// daemon; everything that ships is built by `PokestubDaemon` from a `Configuration`.
    ///
    /// - Parameters:
    ///   - store: The stubs to serve.
    ///   - journalCapacity: The most serve events kept (0 keeps none).
    ///   - maxMemoryBytes: The memory budget (``MemoryBudget``) in bytes; 1 GiB, the daemon's default.
    ///   - templateLimits: The work a request's response templates may do.
    ///   - sessionLimits: Limits of `/__admin/sessions`.
    ///   - rewriteUpstreamLinks: Whether links to `https://pokeapi.co` in served bodies point at `baseURL`.
    ///   - baseURL: Where clients reach this server, e.g. `http://127.0.0.1:8080`.
    package convenience init(
        store: StubStore, journalCapacity: Int, maxMemoryBytes: Int = 1 << 30,
        templateLimits: TemplateLimits = TemplateLimits(), sessionLimits: SessionLimits = SessionLimits(),
        rewriteUpstreamLinks: Bool = false, baseURL: String = "http://127.0.0.1"
    ) {
        let memory = MemoryBudget(limit: maxMemoryBytes)
        let bodyBudget = JournalBodyBudget(limit: 256 << 20, memory: memory)
        let info = ServerInfo(mode: .replay, baseURL: baseURL)
        let upstream = "https://pokeapi.co"
        let rewriter = rewriteUpstreamLinks ? LinkRewriter(upstreamBases: [upstream], info: info) : nil
        self.init(
            store: store, journal: RequestJournal(capacity: journalCapacity, sharedBudget: bodyBudget),
            memory: memory, info: info,
            recordings: Recordings(store: store, info: info, upstream: upstream, client: nil, rewriter: rewriter),
            sessions: SessionRegistry(
                limits: sessionLimits, info: info, bodyFilesRoot: store.root, journalBodyBudget: bodyBudget,
                globalResponseTemplating: store.globalResponseTemplating),
            linkRewriter: rewriter, contract: ContractMonitor(schemas: .pokeAPI, logger: .disabled),
            templateLimits: templateLimits, adminAccess: AdminAccess(), shutdown: ShutdownTrigger(), logger: .disabled)
    }
}
