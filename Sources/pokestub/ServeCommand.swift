import Foundation
import PokestubCore
import PokestubDaemon

/// `pokestub serve`: resolves the configuration, loads the stubs, listens, and runs until SIGINT or
/// SIGTERM; SIGHUP reloads the stubs.
enum ServeCommand {
    /// The text of `serve --help`; its option list comes from ``ConfigurationKey/all``.
    static var help: String {
        usage + ConfigurationKey.helpEntry(option: "--config FILE", description: configDescription)
            + ConfigurationKey.helpOptions()
            + ConfigurationKey.helpEntry(option: "-h, --help", description: "print this help")
            + details
    }

    private static let configDescription = "config file (default: $POKESTUB_CONFIG, else ./config.json if present)"

    private static let usage = """
        Usage: pokestub serve [options]

        Answers HTTP requests from the stubs under DIR/mappings (bodies in DIR/__files), keeps a
        request journal, and serves the admin API under /__admin/.

        Options (each overrides config.json and POKESTUB_* environment variables):

        """

    private static let details = """

        Modes: replay answers from stubs only and never contacts the upstream; record sends every
        request upstream and writes the answers as stubs; record-missing answers from stubs and
        records what they miss; proxy answers from stubs and passes misses to the upstream without
        writing. Upstream refused or unreachable gives 502, a timeout 504.

        Under systemd: speaks the notify protocol (READY, RELOADING, STOPPING, STATUS) when
        NOTIFY_SOCKET is set, serves on the socket passed through LISTEN_FDS (socket activation), and
        without --admin-token or --admin-token-file reads the admin token from the credential
        admin-token ($CREDENTIALS_DIRECTORY/admin-token, LoadCredential=) when there is one.

        Standard output: once serving, one line that scripts may wait for and parse (a stable interface):
          pokestub listening on http://HOST:PORT (N stubs from DIR, mode MODE)
        and, with --admin-port, a second: pokestub admin API on http://HOST:PORT/__admin. With
        --port-file PATH the port is also written to PATH (the digits and a newline; a temporary file in
        the same folder renamed onto PATH once listening), and removed at a graceful stop.

        Stub files are watched (--watch-stubs false turns it off): a change reloads them after 200 ms of
        quiet, exactly as SIGHUP does.

        What loads is served: a stub using a feature pokestub lacks, a template that does not parse
        or a body file that is missing answers 500 naming its file and line, a file with any other
        problem is left out, and each is logged at start and on reload. --strict makes the tree all
        or nothing instead.

        Signals: SIGHUP reloads the stubs (with --strict, a broken file keeps the previous stubs
        serving);
        SIGINT and SIGTERM stop accepting, finish requests in flight, and exit 0 (in a record mode,
        after logging how many stubs are new, unchanged and changed).

        Exit statuses: 0 stopped by a signal, 64 usage error, 65 no stub folder (or, with --strict,
        stub files have problems) at start, 69 cannot listen, 73 cannot write the port file, 78
        invalid configuration.

        """

    static func run(arguments: [String], environment: [String: String]) throws(CommandFailure) -> ExitStatus {
        // Before any thread starts: one heap per core (see HeapArenas).
        HeapArenas.limit(to: ProcessInfo.processInfo.activeProcessorCount)
        let switches = ConfigurationKey.all.filter(\.isSwitch).map(\.path)  // flags without a value
        let valueOptions = Set(
            Configuration.keys.filter { !switches.contains($0) }.map(Configuration.flagName(for:)) + ["config"])
        let flagOptions = Set(["help"] + switches.map(Configuration.flagName(for:)))
        let parsed = try ParsedArguments(
            arguments, valueOptions: valueOptions, flagOptions: flagOptions, command: "serve")
        if parsed.flags.contains("help") {
            Console.out(help)
            return .success
        }
        guard parsed.positional.isEmpty else {
            throw CommandFailure(
                status: .usage, message: "unexpected argument \(parsed.positional[0].debugDescription)")
        }
        var flags: [String: String] = [:]
        for key in Configuration.keys {
            if let value = parsed.options[Configuration.flagName(for: key)] { flags[key] = value }
        }
        for key in switches where parsed.flags.contains(Configuration.flagName(for: key)) { flags[key] = "true" }
        let configuration: Configuration
        do {
            configuration = try Configuration.resolve(
                configFile: parsed.options["config"], environment: environment, flags: flags
            ).0
        } catch {
            throw CommandFailure(status: .configuration, message: error.description)
        }
        let logger = Logger(handler: StandardErrorLogHandler(), level: configuration.logLevel)
        if !configuration.bindsLoopbackOnly && configuration.adminToken == nil {
            guard configuration.adminAllowUnauthenticated else {
                throw CommandFailure(
                    status: .configuration,
                    message: "invalid configuration adminToken: host \(configuration.host) is reachable from other "
                        + "machines, and anyone who reaches it could change the stubs; set adminToken "
                        + "(POKESTUB_ADMIN_TOKEN) or, if the network is trusted, adminAllowUnauthenticated")
            }
            logger.warning(
                "THE ADMIN API IS OPEN TO EVERY MACHINE THAT REACHES \(configuration.host): anyone can change stubs "
                    + "and read the journal (adminAllowUnauthenticated is set; set adminToken instead)")
        }
        let daemon = try Daemon(configuration: configuration, environment: environment, logger: logger)
        try daemon.start()
        daemon.waitForStopSignal()
        daemon.stop()
        return .success
    }
}
