import Foundation
import PokestubCore

/// `pokestub serve`: resolves the configuration, loads the stubs, listens, and runs until SIGINT or
/// SIGTERM; SIGHUP reloads the stubs.
enum ServeCommand {
    static let help = """
        Usage: pokestub serve [options]

        Answers HTTP requests from the stubs under DIR/mappings (bodies in DIR/__files), keeps a
        request journal, and serves the admin API under /__admin/.

        Options (each overrides config.json and POKESTUB_* environment variables):
          --config FILE                 config file (default: $POKESTUB_CONFIG, else ./config.json if present)
          --host ADDRESS                IP address to listen on (default 127.0.0.1)
          --port PORT                   TCP port; 0 picks a free one (default 8080)
          --stubs DIR                   stub folder, relative to the working directory (default:
                                        stubs beside the config file, else ./stubs)
          --mode MODE                   replay | record | record-missing | proxy (default replay)
          --upstream URL                upstream base URL (default https://pokeapi.co)
          --upstream-connect-timeout-ms MS
                                        upstream connect timeout (default 5000)
          --upstream-timeout-ms MS      upstream total timeout per request (default 30000)
          --rewrite-upstream-links BOOL point upstream links in served bodies at this server
                                        (default true)
          --recording-redact-headers LIST
                                        header values redacted in recordings, comma-separated
                                        (default Authorization,Cookie,Set-Cookie,X-Api-Key,X-Auth-Token)
          --recording-redact-query-parameters LIST
                                        words that make a query parameter secret (default
                                        token,key,apikey,secret,password,passwd,signature,sig,auth,...)
          --recording-large-body-bytes N
                                        larger bodies are written to __files/ (default 65536)
          --journal-max-entries N       serve events kept in the request journal (default 10000; 0 = off)
          --journal-max-body-bytes N    request-body bytes the journal keeps; older events go first
                                        beyond it (default 67108864)
          --log-level LEVEL             error | warning | notice | info | debug (default info)
          --watch-stubs true|false      reload when stub files change (default true)
          --preload-body-files true|false
                                        read __files/ bodies at load, not at first use, so a
                                        deleted body file keeps serving (default false)
          --admin-token TOKEN           bearer token the admin API requires (prefer $POKESTUB_ADMIN_TOKEN:
                                        flags show in ps); required when --host is not loopback
          --admin-allow-unauthenticated serve an open admin API off loopback anyway (warned about)
          --admin-port PORT             serve the admin API on a port of its own (0 picks one)
          --limits-max-connections N    connections open at once (default 1024)
          --limits-idle-timeout-seconds N
                                        close connections idle this long (default 60)
          --limits-header-timeout-seconds N
                                        close connections whose request line and header fields
                                        take longer, however steadily they arrive (default 10)
          --limits-body-timeout-seconds N
                                        close connections whose request body takes longer
                                        after its header fields (default 60)
          --limits-max-body-bytes N     larger request bodies get 413 (default 16777216)
          --limits-max-header-bytes N   larger request headers get 431 (default 32768)
          --sessions-max N              sessions open at once, 429 beyond (default 256)
          --sessions-max-stubs N        runtime stubs per session (default 1000)
          --sessions-journal-max-entries N
                                        serve events kept per session (default 1000)
          --sessions-idle-timeout-seconds N
                                        sessions end after this long unused (default 600)
          -h, --help                    print this help

        Modes: replay answers from stubs only and never contacts the upstream; record sends every
        request upstream and writes the answers as stubs; record-missing answers from stubs and
        records what they miss; proxy answers from stubs and passes misses to the upstream without
        writing. Upstream refused or unreachable gives 502, a timeout 504.

        Under systemd: speaks the notify protocol (READY, RELOADING, STOPPING, STATUS) when
        NOTIFY_SOCKET is set, and serves on the socket passed through LISTEN_FDS (socket activation).

        Stub files are watched (--watch-stubs false turns it off): a change reloads them after 200 ms of
        quiet, exactly as SIGHUP does.

        Signals: SIGHUP reloads the stubs (a broken file keeps the previous stubs serving);
        SIGINT and SIGTERM stop accepting, finish requests in flight, and exit 0 (in a record mode,
        after logging how many stubs are new, unchanged and changed).

        Exit statuses: 0 stopped by a signal, 64 usage error, 65 stub files have problems at start,
        69 cannot listen, 78 invalid configuration.

        """

    static func run(arguments: [String], environment: [String: String]) throws(CommandFailure) -> ExitStatus {
        let switches = ["adminAllowUnauthenticated"]  // flags without a value
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
