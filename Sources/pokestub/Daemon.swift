import Dispatch
import Foundation
import PokestubCore
import PokestubDaemon
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `pokestub serve` runs: a ``PokestubDaemon`` with the signal handlers, the stub tree watcher and the
/// systemd notifications around it, from start to a graceful stop.
///
/// ```swift
/// let daemon = try Daemon(configuration: configuration, environment: environment, logger: logger)
/// try daemon.start()          // loads stubs, listens, prints "pokestub listening on …", tells systemd READY
/// daemon.waitForStopSignal()  // SIGHUP reloads meanwhile; returns on SIGINT or SIGTERM
/// daemon.stop()               // finishes requests in flight, then stops
/// ```
final class Daemon: Sendable {
    let configuration: Configuration
    let logger: Logger
    private let notifier: SystemdNotifier
    private let activated: Bool
    private let daemon: PokestubDaemon
    private let portFile: PortFile?
    private let stopped = DispatchSemaphore(value: 0)
    private let running = Locked<Running?>(nil)

    /// What exists only while running: the signal sources and the watcher, kept alive until ``stop()``.
    private struct Running: @unchecked Sendable {
        var signalSources: [any DispatchSourceSignal]
        var watcher: StubTreeWatcher?
    }

    /// Raises the open-files limit to what the configuration needs (``OpenFileLimit``), binds the listeners and
    /// builds everything; nothing is read or answered until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: The resolved configuration; `limits.maxConnections` is lowered, with a warning, when
    ///     the open-files limit cannot be raised far enough for it.
    ///   - environment: The process environment (`NOTIFY_SOCKET`, `LISTEN_FDS`).
    ///   - logger: Where events are logged.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/unavailable`` when an address cannot be bound,
    ///   ``ExitStatus/cannotCreate`` when the port file's folder does not exist (checked before binding).
    init(configuration resolved: Configuration, environment: [String: String], logger: Logger) throws(CommandFailure) {
        // First, before any descriptor is opened: launchd starts jobs with a soft limit of 256.
        let configuration = OpenFileLimit.fit(resolved, logger: logger)
        self.configuration = configuration
        self.logger = logger
        if let path = configuration.portFile {
            portFile = try PortFile(path: path)
        } else {
            portFile = nil
        }
        notifier = SystemdNotifier(environment: environment)
        let socket = SocketActivation.listeningSocket(environment: environment)
        activated = socket != nil
        do {
            daemon = try PokestubDaemon(configuration: configuration, activatedSocket: socket, logger: logger)
        } catch {
            throw CommandFailure(status: .unavailable, message: error.description)
        }
    }

    /// Loads the stubs, listens, handles signals and watches the stub tree, then announces itself: the port
    /// file (when configured), the `pokestub listening on URL (…)` line scripts wait for, and READY to
    /// systemd. Signals are handled before any of them, so a SIGINT sent as soon as one appears is not lost.
    ///
    /// Each stub problem and warning of the load is logged as `path:line: message` (``logLoad(_:)``).
    ///
    /// - Throws: ``CommandFailure`` with ``ExitStatus/dataError`` when the stub root is no folder or, with
    ///   `strict`, the stub files have problems (each listed as `path:line: message`),
    ///   ``ExitStatus/unavailable`` when a socket cannot be served,
    ///   ``ExitStatus/cannotCreate`` when the port file cannot be written (the daemon is stopped first).
    func start() throws(CommandFailure) {
        SignalHandlers.ignoreBrokenPipes()
        do {
            try daemon.start()
        } catch {
            switch error {
            case .stubProblems: throw CommandFailure(status: .dataError, message: "cannot start: \(error)")
            case .cannotListen: throw CommandFailure(status: .unavailable, message: error.description)
            }
        }
        if let report = daemon.store.lastReload { logLoad(report) }
        var isFolder: ObjCBool = false
        let mappings = (configuration.stubs as NSString).appendingPathComponent("mappings")
        if !FileManager.default.fileExists(atPath: mappings, isDirectory: &isFolder) || !isFolder.boolValue {
            // Easy to get by pointing --stubs one level off; the daemon would otherwise answer 404 to everything.
            logger.warning(
                "\(mappings) is not a folder: no stubs are read from files (--stubs names the folder above it)")
        }
        var signalSources = [SignalHandlers.on(SIGHUP) { [self] in reload(trigger: "SIGHUP") }]
        for signal in [SIGINT, SIGTERM] {
            signalSources.append(SignalHandlers.on(signal) { [stopped] in stopped.signal() })
        }
        // POST /__admin/shutdown stops the daemon as SIGTERM does, after its 200 is handed to the server.
        daemon.engine.shutdown.setHandler { [stopped, logger] in
            logger.notice("shutdown requested through the admin API")
            stopped.signal()
        }
        let watcher =
            configuration.watchStubs
            ? StubTreeWatcher(root: configuration.stubs) { [self] in reload(trigger: "files changed") } : nil
        running.withLock { $0 = Running(signalSources: signalSources, watcher: watcher) }

        if let portFile {
            do throws(CommandFailure) {
                try portFile.write(port: daemon.port)
            } catch {
                stop()
                throw error
            }
        }
        let baseURL = daemon.baseURL
        let served =
            "\(daemon.store.index.count) stubs from \(configuration.stubs), mode \(configuration.mode.rawValue)"
        Console.out("pokestub listening on \(baseURL) (\(served))")
        if let adminBaseURL = daemon.adminBaseURL { Console.out("pokestub admin API on \(adminBaseURL)/__admin") }
        if activated { logger.notice("serving on the socket systemd passed (LISTEN_FDS)") }
        notifier.ready(status: "serving \(served) on \(baseURL)")
    }

    /// Reads the stub tree again (SIGHUP, a change under it); on any problem the stubs being served stay, and
    /// each problem is logged as `path:line: message`. systemd hears RELOADING, then READY.
    ///
    /// - Parameter trigger: What asked for the reload, for the log.
    func reload(trigger: String) {
        notifier.reloading()
        let report = daemon.reload()
        let store = daemon.store
        defer {
            let state = report.succeeded ? "" : ", last reload failed"
            notifier.ready(status: "serving \(store.index.count) stubs from \(configuration.stubs)\(state)")
        }
        if report.succeeded {
            logLoad(report)
            logger.notice("reloaded \(report.stubCount) stubs from \(configuration.stubs) (\(trigger))")
        } else {
            for problem in report.problems { logger.error(problem.description) }
            logger.error(
                "reload (\(trigger)) failed with \(report.problems.count) problem(s); still serving the previous "
                    + "\(store.index.count) stubs")
        }
    }

    /// Logs what a load that replaced the stubs left out, each as `path:line: message`: a file that did not
    /// load as an error, a stub that answers 500 as a warning, then a line counting them.
    ///
    /// - Parameter report: A reload that succeeded.
    private func logLoad(_ report: StubStore.ReloadReport) {
        for problem in report.problems { logger.error(problem.description) }
        for warning in report.warnings { logger.warning(warning.description) }
        guard !report.problems.isEmpty || !report.warnings.isEmpty else { return }
        logger.warning(
            "serving \(report.stubCount) stubs from \(configuration.stubs): \(report.problems.count) problem(s) left "
                + "their files out, \(report.warnings.count) warning(s) make stubs answer 500 naming them (strict "
                + "refuses the whole tree instead)")
    }

    /// Blocks the calling thread until SIGINT, SIGTERM or `POST /__admin/shutdown`.
    func waitForStopSignal() {
        stopped.wait()
    }

    /// Stops watching and handling signals, removes the port file, lets requests in flight finish (the admin
    /// port 2 s, the main port 10 s), stops the upstream client, and logs what was recorded.
    func stop() {
        portFile?.remove(ifHolding: daemon.port)
        let ended = running.withLock { running in
            defer { running = nil }
            return running
        }
        ended?.signalSources.forEach { $0.cancel() }
        withExtendedLifetime(ended?.watcher) {}
        logger.notice("stopping: finishing requests in flight")
        notifier.stopping()
        daemon.stop()
        let recordings = daemon.engine.recordings
        if configuration.mode == .record || configuration.mode == .recordMissing || recordings.status != .neverStarted {
            logger.notice("recorded stubs in \(configuration.stubs): \(recordings.lifetimeReport)")
        }
        logger.notice("stopped")
    }
}
