import Dispatch
import Foundation
import PokestubCore
import PokestubServer
import PokestubUpstream
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `pokestub serve` runs: the stub store, the engine, the HTTP servers, the stub tree watcher and the
/// signal handlers, from start to a graceful stop.
///
/// ```swift
/// let daemon = Daemon(configuration: configuration, environment: environment, logger: logger)
/// try daemon.start()          // loads stubs, listens, prints "pokestub listening on …", tells systemd READY
/// daemon.waitForStopSignal()  // SIGHUP reloads meanwhile; returns on SIGINT or SIGTERM
/// daemon.stop()               // finishes requests in flight, then stops
/// ```
final class Daemon: Sendable {
    let configuration: Configuration
    let logger: Logger
    private let notifier: SystemdNotifier
    private let activatedSocket: Int32?
    private let store: StubStore
    private let upstreamClient: CurlUpstreamClient
    private let engine: StubEngine
    private let server: HTTPServer
    private let adminServer: HTTPServer?
    private let stopped = DispatchSemaphore(value: 0)
    private let running = Mutex<Running?>(nil)

    /// What exists only while running: the signal sources and the watcher, kept alive until ``stop()``.
    private struct Running: @unchecked Sendable {
        var signalSources: [any DispatchSourceSignal]
        var watcher: StubTreeWatcher?
    }

    /// Builds everything; nothing is read or bound until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: The resolved configuration.
    ///   - environment: The process environment (`NOTIFY_SOCKET`, `LISTEN_FDS`).
    ///   - logger: Where events are logged.
    init(configuration: Configuration, environment: [String: String], logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        notifier = SystemdNotifier(environment: environment)
        activatedSocket = SocketActivation.listeningSocket(environment: environment)
        store = StubStore(root: configuration.stubs, preloadBodyFiles: configuration.preloadBodyFiles)
        // Created in every mode (recordings can start through the admin API); libcurl is set up, its threads
        // start and its connections open only with the first forwarded request, so replay never contacts the
        // upstream.
        upstreamClient = CurlUpstreamClient(
            configuration: CurlUpstreamConfiguration(
                connectTimeoutMilliseconds: configuration.upstreamConnectTimeoutMilliseconds,
                timeoutMilliseconds: configuration.upstreamTimeoutMilliseconds),
            logger: logger)
        engine = StubEngine(
            store: store, journalCapacity: configuration.journalMaxEntries,
            journalMaxBodyBytes: configuration.journalMaxBodyBytes, mode: configuration.mode,
            upstream: configuration.upstream, upstreamClient: upstreamClient, recording: configuration.recording,
            rewriteUpstreamLinks: configuration.rewriteUpstreamLinks, sessionLimits: configuration.sessions,
            adminAccess: AdminAccess(
                token: configuration.adminToken, onMainServer: configuration.adminPort == nil,
                host: configuration.host,
                acceptsAnyHost: configuration.adminAllowUnauthenticated && !configuration.bindsLoopbackOnly),
            logger: logger)
        server = HTTPServer(
            configuration: Daemon.serverConfiguration(configuration, port: configuration.port, socket: activatedSocket),
            handler: engine, logger: logger)
        adminServer = configuration.adminPort.map { [engine] port in
            HTTPServer(
                configuration: Daemon.serverConfiguration(configuration, port: port, socket: nil),
                handler: AdminOnlyHandler(engine: engine), logger: logger)
        }
    }

    /// How a server listens: the configured host and limits, on `port` or an already listening socket.
    private static func serverConfiguration(
        _ configuration: Configuration, port: Int, socket: Int32?
    ) -> HTTPServerConfiguration {
        let limits = configuration.limits
        return HTTPServerConfiguration(
            host: configuration.host, port: port, listenSocket: socket, connectionLimit: limits.maxConnections,
            idleTimeoutSeconds: limits.idleTimeoutSeconds, maxBodyBytes: limits.maxBodyBytes,
            maxHeaderBytes: limits.maxHeaderBytes, headerTimeout: .seconds(limits.headerTimeoutSeconds),
            bodyTimeout: .seconds(limits.bodyTimeoutSeconds))
    }

    /// Loads the stubs, listens, handles signals and watches the stub tree, then announces itself: the
    /// `pokestub listening on URL (…)` line scripts wait for, and READY to systemd. Signals are handled before
    /// either, so a SIGINT sent as soon as the line appears is not lost.
    ///
    /// - Throws: ``CommandFailure`` with ``ExitStatus/dataError`` when the stub files have problems (each
    ///   listed as `path:line: message`), ``ExitStatus/unavailable`` when an address cannot be bound.
    func start() throws(CommandFailure) {
        let report = store.reload()
        guard report.succeeded else {
            let lines = report.problems.map(\.description).joined(separator: "\n")
            throw CommandFailure(
                status: .dataError,
                message: "cannot start: \(report.problems.count) problem(s) in \(configuration.stubs)\n\(lines)")
        }
        var isFolder: ObjCBool = false
        let mappings = (configuration.stubs as NSString).appendingPathComponent("mappings")
        if !FileManager.default.fileExists(atPath: mappings, isDirectory: &isFolder) || !isFolder.boolValue {
            // Easy to get by pointing --stubs one level off; the daemon would otherwise answer 404 to everything.
            logger.warning(
                "\(mappings) is not a folder: no stubs are read from files (--stubs names the folder above it)")
        }
        // Upstream links in bodies are rewritten to the base URL, so it is set before the first request can
        // arrive: before listening when the port is known, else (port 0) as soon as it is.
        let knownPort = activatedSocket.flatMap(HTTPServer.port(ofListeningSocket:)) ?? configuration.port
        if knownPort != 0 { engine.info.baseURL = HTTPServer.baseURL(host: configuration.host, port: knownPort) }
        do {
            try server.start()
            engine.info.baseURL = server.baseURL
            try adminServer?.start()
            engine.info.adminBaseURL = adminServer?.baseURL
        } catch {
            server.stop(gracePeriod: .zero)
            throw CommandFailure(status: .unavailable, message: error.description)
        }
        var signalSources = [SignalHandlers.on(SIGHUP) { [self] in reload(trigger: "SIGHUP") }]
        for signal in [SIGINT, SIGTERM] {
            signalSources.append(SignalHandlers.on(signal) { [stopped] in stopped.signal() })
        }
        let watcher =
            configuration.watchStubs
            ? StubTreeWatcher(root: configuration.stubs) { [self] in reload(trigger: "files changed") } : nil
        running.withLock { $0 = Running(signalSources: signalSources, watcher: watcher) }

        let baseURL = server.baseURL
        let served = "\(store.index.count) stubs from \(configuration.stubs), mode \(configuration.mode.rawValue)"
        Console.out("pokestub listening on \(baseURL) (\(served))")
        if let adminServer { Console.out("pokestub admin API on \(adminServer.baseURL)/__admin") }
        if activatedSocket != nil { logger.notice("serving on the socket systemd passed (LISTEN_FDS)") }
        notifier.ready(status: "serving \(served) on \(baseURL)")
    }

    /// Reads the stub tree again (SIGHUP, a change under it); on any problem the stubs being served stay, and
    /// each problem is logged as `path:line: message`. systemd hears RELOADING, then READY.
    ///
    /// - Parameter trigger: What asked for the reload, for the log.
    func reload(trigger: String) {
        notifier.reloading()
        let report = store.reload()
        defer {
            let state = report.succeeded ? "" : ", last reload failed"
            notifier.ready(status: "serving \(store.index.count) stubs from \(configuration.stubs)\(state)")
        }
        if report.succeeded {
            logger.notice("reloaded \(report.stubCount) stubs from \(configuration.stubs) (\(trigger))")
        } else {
            for problem in report.problems { logger.error(problem.description) }
            logger.error(
                "reload (\(trigger)) failed with \(report.problems.count) problem(s); still serving the previous "
                    + "\(store.index.count) stubs")
        }
    }

    /// Blocks the calling thread until SIGINT or SIGTERM.
    func waitForStopSignal() {
        stopped.wait()
    }

    /// Stops watching and handling signals, lets requests in flight finish (the admin port 2 s, the main
    /// port 10 s), stops the upstream client, and logs what was recorded.
    func stop() {
        let ended = running.withLock { running in
            defer { running = nil }
            return running
        }
        ended?.signalSources.forEach { $0.cancel() }
        withExtendedLifetime(ended?.watcher) {}
        logger.notice("stopping: finishing requests in flight")
        notifier.stopping()
        adminServer?.stop(gracePeriod: .seconds(2))
        server.stop()
        upstreamClient.shutdown()
        if configuration.mode == .record || configuration.mode == .recordMissing
            || engine.recordings.status != .neverStarted
        {
            logger.notice("recorded stubs in \(configuration.stubs): \(engine.recordings.lifetimeReport)")
        }
        logger.notice("stopped")
    }
}
