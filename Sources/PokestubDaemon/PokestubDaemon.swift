import Foundation
import PokestubCore
import PokestubServer
import PokestubUpstream

/// pokestub put together: the stub store, the upstream client, the engine and the HTTP servers, built from a
/// ``PokestubCore/Configuration`` in one place, for `pokestub serve`, `withStubServer` and the tests alike.
///
/// The listeners are bound first, so the daemon's addresses are known before anything that needs them (the
/// links it rewrites, the URLs of sessions) is built, and before the first request can arrive. Building
/// binds; ``start()`` loads the stub files and starts answering; ``stop(gracePeriod:)`` lets requests in
/// flight finish.
///
/// ```swift
/// var configuration = Configuration()
/// configuration.port = 0
/// let daemon = try PokestubDaemon(configuration: configuration)
/// try daemon.start()
/// print(daemon.baseURL)   // http://127.0.0.1:PORT
/// daemon.stop()
/// ```
public final class PokestubDaemon: Sendable {
    /// Where the stubs come from.
    public enum StubFolder: Sendable, Equatable {
        /// The configuration's `stubs` folder, loaded at ``start()`` and on ``reload()``.
        case configured
        /// None: only stubs added at run time (through the admin API or in code).
        case none
    }

    /// Why the daemon could not be built or started.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// An address could not be bound or served (taken, not permitted, not an IP literal).
        case cannotListen(HTTPServerError)
        /// The stub root is no folder, or (with `strict`) a stub file has a problem; nothing is served.
        case stubProblems(folder: String, [StubLoadProblem])

        public var description: String {
            switch self {
            case .cannotListen(let error): error.description
            case .stubProblems(let folder, let problems):
                "\(problems.count) problem(s) in \(folder)\n" + problems.map(\.description).joined(separator: "\n")
            }
        }
    }

    /// The configuration it was built from.
    public let configuration: Configuration
    /// The stubs served.
    package let store: StubStore
    /// What answers every request.
    package let engine: StubEngine
    /// The libcurl client forwarded requests go through (its ``PokestubUpstream/CurlUpstreamClient/statistics``
    /// count transfers and connections).
    package let upstreamClient: CurlUpstreamClient
    private let server: HTTPServer
    private let adminServer: HTTPServer?
    private let loadsStubFolder: Bool

    /// Binds the listeners and builds everything; nothing is answered until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: Host, port, stubs, mode, upstream, journal, limits, sessions, admin access.
    ///   - stubFolder: Whether the configured stub folder is loaded; ``StubFolder/none`` serves runtime stubs
    ///     only.
    ///   - activatedSocket: A listening socket the service manager passed (systemd `LISTEN_FDS`), served
    ///     instead of binding `host:port`.
    ///   - threads: Server threads (default one per core).
    ///   - logger: Where the daemon logs.
    /// - Throws: ``Failure/cannotListen(_:)`` when an address cannot be bound.
    public convenience init(
        configuration: Configuration, stubFolder: StubFolder = .configured, activatedSocket: Int32? = nil,
        threads: Int? = nil, logger: Logger = .disabled
    ) throws(Failure) {
        try self.init(
            configuration: configuration, stubFolder: stubFolder, activatedSocket: activatedSocket, threads: threads,
            adminAccess: nil, handler: nil, logger: logger)
    }

    /// ``init(configuration:stubFolder:activatedSocket:threads:logger:)`` with the package's own parts:
    /// `adminAccess` says who may use the admin API when not as the configuration says (token, host checks);
    /// `handler` answers requests in front of the engine (`withStubServer`'s closure routes), or `nil` for the
    /// engine itself.
    package init(
        configuration: Configuration, stubFolder: StubFolder = .configured, activatedSocket: Int32? = nil,
        threads: Int? = nil, adminAccess: AdminAccess?,
        handler: (@Sendable (StubEngine) -> any HTTPHandler)?,
        logger: Logger = .disabled
    ) throws(Failure) {
        self.configuration = configuration
        loadsStubFolder = stubFolder == .configured
        let listener: HTTPListener
        var adminListener: HTTPListener?
        do throws(HTTPServerError) {
            if let activatedSocket {
                listener = try HTTPListener(activatedSocket: activatedSocket, host: configuration.host)
            } else {
                listener = try HTTPListener(host: configuration.host, port: configuration.port)
            }
            if let adminPort = configuration.adminPort {
                adminListener = try HTTPListener(host: configuration.host, port: adminPort)
            }
        } catch {
            throw .cannotListen(error)
        }
        store = StubStore(
            root: loadsStubFolder ? configuration.stubs : nil, preloadBodyFiles: configuration.preloadBodyFiles,
            globalResponseTemplating: configuration.globalResponseTemplating, strict: configuration.strict)
        // Made in every mode (a recording can start through the admin API); libcurl is set up, its threads
        // start and its connections open only with the first forwarded request, so replay never contacts the
        // upstream.
        // One memory budget for what clients send and ask for, and for upstream answers while they arrive.
        let memory = MemoryBudget(limit: configuration.limits.maxMemoryBytes)
        upstreamClient = CurlUpstreamClient(
            configuration: CurlUpstreamConfiguration(
                connectTimeoutMilliseconds: configuration.upstreamConnectTimeoutMilliseconds,
                timeoutMilliseconds: configuration.upstreamTimeoutMilliseconds),
            memory: memory, logger: logger)
        let access =
            adminAccess
            ?? AdminAccess(
                token: configuration.adminToken, onMainServer: configuration.adminPort == nil,
                host: configuration.host,
                acceptsAnyHost: configuration.adminAllowUnauthenticated && !configuration.bindsLoopbackOnly)
        // With an admin token every job holds the same token; sessions' secrets keep each to its own.
        var sessionLimits = configuration.sessions
        sessionLimits.requiresSecrets = access.token != nil
        engine = Self.engine(
            configuration: configuration, store: store, memory: memory, upstreamClient: upstreamClient,
            sessionLimits: sessionLimits, adminAccess: access, baseURL: listener.baseURL,
            adminBaseURL: adminListener?.baseURL, logger: logger)
        let limits = configuration.limits
        let serverConfiguration = HTTPServerConfiguration(
            threads: threads, connectionLimit: limits.maxConnections, idleTimeoutSeconds: limits.idleTimeoutSeconds,
            maxBodyBytes: limits.maxBodyBytes, maxHeaderBytes: limits.maxHeaderBytes,
            headerTimeout: .seconds(limits.headerTimeoutSeconds), bodyTimeout: .seconds(limits.bodyTimeoutSeconds))
        server = HTTPServer(
            listener: listener, configuration: serverConfiguration, handler: handler?(engine) ?? engine,
            logger: logger)
        adminServer = adminListener.map { [engine] adminListener in
            HTTPServer(
                listener: adminListener, configuration: serverConfiguration,
                handler: AdminOnlyHandler(engine: engine), logger: logger)
        }
    }

    /// The engine and its parts, each made from `configuration`: the journal within the daemon's memory budget,
    /// the recordings over the upstream client, sessions, link rewriting, the schema check of upstream answers.
    private static func engine(
        configuration: Configuration, store: StubStore, memory: MemoryBudget, upstreamClient: any UpstreamClient,
        sessionLimits: SessionLimits, adminAccess: AdminAccess, baseURL: String, adminBaseURL: String?,
        logger: Logger
    ) -> StubEngine {
        let bodyBudget = JournalBodyBudget(limit: configuration.journalMaxTotalBodyBytes, memory: memory)
        let journal = RequestJournal(
            capacity: configuration.journalMaxEntries, maxBodyBytes: configuration.journalMaxBodyBytes,
            maxResponseBodyBytes: configuration.journalMaxResponseBodyBytes, sharedBudget: bodyBudget)
        let info = ServerInfo(mode: configuration.mode, baseURL: baseURL, adminBaseURL: adminBaseURL)
        // Links to pokeapi.co are rewritten whatever the upstream: the shipped stubs and recordings made
        // before the upstream changed hold them.
        let rewriter =
            configuration.rewriteUpstreamLinks
            ? LinkRewriter(upstreamBases: [configuration.upstream, "https://pokeapi.co"], info: info) : nil
        let recordings = Recordings(
            store: store, info: info, upstream: configuration.upstream, client: upstreamClient,
            options: configuration.recording, rewriter: rewriter, logger: logger)
        let sessions = SessionRegistry(
            limits: sessionLimits, info: info, bodyFilesRoot: store.root, journalBodyBudget: bodyBudget,
            globalResponseTemplating: store.globalResponseTemplating)
        return StubEngine(
            store: store, journal: journal, memory: memory, info: info, recordings: recordings, sessions: sessions,
            linkRewriter: rewriter, contract: ContractMonitor(schemas: .pokeAPI, logger: logger),
            templateLimits: TemplateLimits(
                maxSteps: configuration.limits.maxTemplateSteps, maxBytes: configuration.limits.maxResponseBytes),
            adminAccess: adminAccess, shutdown: ShutdownTrigger(isAllowed: configuration.adminAllowShutdown),
            logger: logger)
    }

    /// Where clients reach the daemon, e.g. `http://127.0.0.1:8080`.
    public var baseURL: String { server.baseURL }

    /// Where the admin port is (config `adminPort`), or `nil` when the admin API shares ``baseURL``.
    public var adminBaseURL: String? { adminServer?.baseURL }

    /// The port the daemon listens on (the one the system picked for port 0).
    public var port: Int { server.port }

    /// Loads the stub folder (unless built with ``StubFolder/none``) and starts answering: every file that
    /// loads is served, and the others are named in ``StubStore/lastReload`` (see ``StubLoader``), unless the
    /// configuration is `strict`.
    ///
    /// - Throws: ``Failure/stubProblems(folder:_:)`` when the stub root is no folder, or with `strict` when a
    ///   stub file has a problem (nothing is served), ``Failure/cannotListen(_:)`` when libmicrohttpd cannot
    ///   start on a socket.
    public func start() throws(Failure) {
        if loadsStubFolder {
            let report = store.reload()
            guard report.succeeded else { throw .stubProblems(folder: configuration.stubs, report.problems) }
        }
        do {
            try server.start()
            try adminServer?.start()
        } catch {
            server.stop(gracePeriod: .zero)
            throw .cannotListen(error)
        }
    }

    /// Reads the stub folder again: the files that load replace the stubs read before, or, with `strict`, on
    /// any problem the stubs being served stay (all files or none).
    ///
    /// - Returns: What was loaded, or the problems.
    @discardableResult
    package func reload() -> StubStore.ReloadReport {
        store.reload()
    }

    /// Stops accepting, lets requests in flight finish (the admin port at most 2 s), then stops the upstream
    /// client.
    ///
    /// - Parameter gracePeriod: How long requests in flight on the main port may take; those still waiting
    ///   after it are answered with 503.
    public func stop(gracePeriod: Duration = .seconds(10)) {
        adminServer?.stop(gracePeriod: min(gracePeriod, .seconds(2)))
        server.stop(gracePeriod: gracePeriod)
        upstreamClient.shutdown()
    }

    /// ``stop(gracePeriod:)`` for async code: the waiting happens on a thread of its own.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        await awaitOnOwnThread { self.stop(gracePeriod: gracePeriod) }
    }
}
