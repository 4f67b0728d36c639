import Foundation
import PokestubCore

extension ConfigurationKey {
    /// Every key, in the order `serve --help` and the table of `Docs/Configuration.md` list them and unknown-key
    /// errors name them.
    public static let all: [ConfigurationKey] = [
        host, port, portFile, stubs, mode, upstream,
        .integer(
            "journal.maxEntries", \.journalMaxEntries, in: 0...10_000_000, note: "0 turns the journal off",
            "serve events kept in the request journal; 0 turns it off"),
        .integer(
            "journal.maxBodyBytes", \.journalMaxBodyBytes, in: 0...(1 << 40),
            note: "64 MiB of request bodies; older events go first beyond it",
            "request-body bytes the journal keeps; older events go first beyond it"),
        .integer(
            "journal.maxResponseBodyBytes", \.journalMaxResponseBodyBytes, in: 0...(1 << 40),
            note:
                "64 MiB of response bodies; beyond it the oldest events lose theirs (the dashboard and HAR show their size)",
            "response-body bytes the journal keeps for the dashboard and HAR; the oldest events lose theirs beyond it"),
        .integer(
            "journal.maxTotalBodyBytes", \.journalMaxTotalBodyBytes, in: 0...(1 << 40),
            note: "256 MiB over the daemon's journal and every session's; a journal past it drops its own oldest",
            "request-body bytes all journals keep together (the daemon's and every session's)"),
        logLevel,
        .integer(
            "upstreamConnectTimeoutMs", \.upstreamConnectTimeoutMilliseconds, in: 1...600_000, placeholder: "MS",
            "upstream connect timeout, in milliseconds"),
        .integer(
            "upstreamTimeoutMs", \.upstreamTimeoutMilliseconds, in: 1...3_600_000, placeholder: "MS",
            "upstream total timeout per request, in milliseconds, the wait for a free worker included"),
        .boolean(
            "rewriteUpstreamLinks", \.rewriteUpstreamLinks, "point upstream links in served bodies at this server"),
        .list(
            "recording.redactHeaders", \.recording.redactedHeaders,
            "header values redacted in recordings, comma-separated"),
        .list(
            "recording.redactQueryParameters", \.recording.redactedQueryWords,
            "words that make a query parameter secret in recordings, comma-separated"),
        .integer(
            "recording.largeBodyBytes", \.recording.largeBodyBytes, in: 0...(1 << 30),
            "recorded bodies larger than this many bytes are written to __files/"),
        .boolean("watchStubs", \.watchStubs, "reload when stub files change"),
        .boolean(
            "strict", \.strict, isSwitch: true,
            note: "serve what loads: a stub pokestub cannot serve answers 500 naming why, a broken file is left out",
            "all or nothing: any stub problem stops serve from starting, and a reload with one keeps the last good stubs"
        ),
        .boolean(
            "preloadBodyFiles", \.preloadBodyFiles, note: "`__files/` bodies are read at first use",
            "read __files/ bodies at load, not at first use, so a deleted body file keeps serving"),
        .boolean(
            "globalResponseTemplating", \.globalResponseTemplating, isSwitch: true,
            note: "only stubs with `\"transformers\": [\"response-template\"]`",
            "render every stub's response as a WireMock response template (Handlebars)"),
        adminToken, adminTokenFile,
        .boolean(
            "adminAllowUnauthenticated", \.adminAllowUnauthenticated, isSwitch: true,
            "serve an open admin API off loopback anyway (warned about)"),
        adminPort,
        .boolean(
            "adminAllowShutdown", \.adminAllowShutdown,
            "let POST /__admin/shutdown stop the daemon (needs the admin token when one is set; never from a session)"),
        .integer(
            "limits.maxConnections", \.limits.maxConnections, in: 1...100_000,
            "connections served at once; past it, a reserve of 1/16 more is answered 503 at once"),
        .integer(
            "limits.idleTimeoutSeconds", \.limits.idleTimeoutSeconds, in: 1...86_400,
            "close connections idle this many seconds"),
        .integer(
            "limits.headerTimeoutSeconds", \.limits.headerTimeoutSeconds, in: 1...3_600,
            "seconds a request line and its header fields may take, however steadily they arrive"),
        .integer(
            "limits.bodyTimeoutSeconds", \.limits.bodyTimeoutSeconds, in: 1...86_400,
            "seconds a request body may take after its header fields"),
        .integer(
            "limits.maxBodyBytes", \.limits.maxBodyBytes, in: 1_024...(1 << 30), note: "16 MiB",
            "larger request bodies get 413"),
        .integer(
            "limits.maxHeaderBytes", \.limits.maxHeaderBytes, in: 8_192...(1 << 20), note: "32 KiB",
            "larger request headers get 431"),
        .integer(
            "limits.maxMemoryBytes", \.limits.maxMemoryBytes, in: (16 << 20)...(1 << 40),
            note: "1 GiB over journals, runtime stubs, admin answers and parsed request bodies; 507 or 429 beyond",
            "bytes journals, runtime stubs, admin answers and parsed request bodies hold together; 507 or 429 beyond"),
        .integer(
            "limits.maxResponseBytes", \.limits.maxResponseBytes, in: 1_024...(1 << 32),
            note: "64 MiB; a template making a larger answer, header value or helper result gets 500",
            "largest answer, header value or helper result a response template may make, in bytes; 500 beyond"),
        .integer(
            "limits.maxTemplateSteps", \.limits.maxTemplateSteps, in: 1_000...1_000_000_000,
            note: "500,000: nodes, loop iterations, helper calls, 256 bytes of helper text; 500 beyond",
            "work one request's response templates may do (nodes, iterations, helper calls, text); 500 beyond"),
        .integer("sessions.max", \.sessions.maxSessions, in: 0...100_000, "sessions open at once, 429 beyond"),
        .integer("sessions.maxStubs", \.sessions.maxStubsPerSession, in: 0...1_000_000, "runtime stubs per session"),
        .integer(
            "sessions.journalMaxEntries", \.sessions.journalCapacity, in: 0...1_000_000,
            "serve events kept per session"),
        .integer(
            "sessions.idleTimeoutSeconds", \.sessions.defaultIdleSeconds, in: 1...86_400,
            "sessions end after this many seconds unused"),
    ]

    private static let host = ConfigurationKey(
        "host", kind: .string, placeholder: "ADDRESS", "IP address or host name to listen on",
        read: { .string($0.host) },
        write: { configuration, input throws(ConfigurationError) in
            let host = try input.text()
            guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw input.fail("must be an IP address or host name, not \(host.debugDescription)")
            }
            configuration.host = host
        })

    private static let port = ConfigurationKey(
        "port", kind: .integer(0...65_535), placeholder: "PORT", defaultNote: "0 picks a free port",
        "TCP port; 0 picks a free one",
        read: { .integer(Int64($0.port)) },
        write: { configuration, input throws(ConfigurationError) in configuration.port = try input.integer(0...65_535) }
    )

    private static let portFile = ConfigurationKey(
        "portFile", kind: .string, placeholder: "PATH", defaultNote: "nothing written",
        "once serving, write the bound port and a newline to this file, atomically (relative to the working "
            + "directory; its folder must exist)",
        read: { $0.portFile.map(JSONValue.string) ?? .null },
        write: { configuration, input throws(ConfigurationError) in
            let path = try input.text()
            guard !path.isEmpty, !path.hasSuffix("/"), !path.contains("\0") else {
                throw input.fail("must be a file path, not \(path.debugDescription)")
            }
            configuration.portFile = path
        })

    private static let stubs = ConfigurationKey(
        "stubs", kind: .string, placeholder: "DIR",
        defaultNote: "see below for what a relative path is relative to", helpShowsDefault: false,
        "stub folder, relative to the working directory (default: stubs beside the config file, else ./stubs)",
        read: { .string($0.stubs) },
        write: { configuration, input throws(ConfigurationError) in
            let path = try input.text()
            guard !path.isEmpty else { throw input.fail("must be a folder path") }
            configuration.stubs = path
        })

    private static let mode = ConfigurationKey(
        "mode", kind: .choice(ServeMode.allCases.map(\.rawValue)), placeholder: "MODE", "what to do with requests",
        read: { .string($0.mode.rawValue) },
        write: { configuration, input throws(ConfigurationError) in
            let name = try input.text()
            guard let mode = ServeMode(rawValue: name) else {
                let names = ServeMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw input.fail("must be one of \(names), not \(name.debugDescription)")
            }
            configuration.mode = mode
        })

    private static let upstream = ConfigurationKey(
        "upstream", kind: .string, placeholder: "URL", "upstream base URL", read: { .string($0.upstream) },
        write: { configuration, input throws(ConfigurationError) in
            let url = try input.text()
            // Scheme and host are case-insensitive (RFC 3986 §3.1, §3.2.2): compare and keep them lower-cased,
            // so `HTTPS://PokeAPI.co` is accepted and upstream links in bodies are recognised.
            guard var components = URLComponents(string: url),
                let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
                let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil
            else {
                throw input.fail(
                    "must be an http or https base URL such as https://pokeapi.co, not \(url.debugDescription)")
            }
            components.scheme = scheme
            components.host = host.lowercased()
            let normalized = components.string ?? url
            configuration.upstream = normalized.hasSuffix("/") ? String(normalized.dropLast()) : normalized
        })

    private static let logLevel = ConfigurationKey(
        "logLevel", kind: .choice(LogLevel.allCases.map(\.name)), placeholder: "LEVEL", "least serious level logged",
        read: { .string($0.logLevel.name) },
        write: { configuration, input throws(ConfigurationError) in
            let name = try input.text()
            guard let level = LogLevel.allCases.first(where: { $0.name == name }) else {
                throw input.fail("must be one of \(LogLevel.allCases.map(\.name).joined(separator: ", "))")
            }
            configuration.logLevel = level
        })

    private static let adminToken = ConfigurationKey(
        "adminToken", kind: .string, placeholder: "TOKEN", defaultNote: "required off loopback",
        "bearer token the admin API requires (prefer --admin-token-file or $POKESTUB_ADMIN_TOKEN: flags show "
            + "in ps); required when --host is not loopback",
        read: { $0.adminToken.map(JSONValue.string) ?? .null },
        write: { configuration, input throws(ConfigurationError) in
            let token = try input.text()
            if let problem = Configuration.tokenProblem(token) { throw input.fail(problem) }
            configuration.adminToken = token
        })

    private static let adminTokenFile = ConfigurationKey(
        "adminTokenFile", kind: .string, placeholder: "PATH",
        defaultNote: "under systemd, the credential `admin-token` if there is one",
        "read the admin token from this file (relative to the working directory; not writable by group or "
            + "others); without this or adminToken, $CREDENTIALS_DIRECTORY/admin-token is read if present",
        read: { $0.adminTokenFile.map(JSONValue.string) ?? .null },
        write: { configuration, input throws(ConfigurationError) in
            let path = try input.text()
            guard !path.isEmpty, !path.hasSuffix("/"), !path.contains("\0") else {
                throw input.fail("must be a file path, not \(path.debugDescription)")
            }
            configuration.adminTokenFile = path
        })

    private static let adminPort = ConfigurationKey(
        "adminPort", kind: .optionalPort, placeholder: "PORT", defaultNote: "shares `port`",
        "serve the admin API on a port of its own (0 picks one)",
        read: { $0.adminPort.map { .integer(Int64($0)) } ?? .null },
        write: { configuration, input throws(ConfigurationError) in
            configuration.adminPort = input.isNone ? nil : try input.integer(0...65_535)
        })
}
