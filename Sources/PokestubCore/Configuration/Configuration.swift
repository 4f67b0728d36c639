import Foundation

/// Everything the daemon needs to start, resolved from four layers, each overriding the one before:
/// built-in defaults < `config.json` < `POKESTUB_*` environment variables < command-line flags.
///
/// Keys (JSON path in `config.json` / environment variable / flag):
///
/// | key | environment | flag | default |
/// | --- | --- | --- | --- |
/// | `host` | `POKESTUB_HOST` | `--host` | `127.0.0.1` |
/// | `port` | `POKESTUB_PORT` | `--port` | `8080` (0 picks a free port) |
/// | `stubs` | `POKESTUB_STUBS` | `--stubs` | `stubs` |
/// | `mode` | `POKESTUB_MODE` | `--mode` | `replay` |
/// | `upstream` | `POKESTUB_UPSTREAM` | `--upstream` | `https://pokeapi.co` |
/// | `journal.maxEntries` | `POKESTUB_JOURNAL_MAX_ENTRIES` | `--journal-max-entries` | `10000` |
/// | `journal.maxBodyBytes` | `POKESTUB_JOURNAL_MAX_BODY_BYTES` | `--journal-max-body-bytes` | `67108864` (64 MiB) |
/// | `logLevel` | `POKESTUB_LOG_LEVEL` | `--log-level` | `info` |
/// | `upstreamConnectTimeoutMs` | `POKESTUB_UPSTREAM_CONNECT_TIMEOUT_MS` | `--upstream-connect-timeout-ms` | `5000` |
/// | `upstreamTimeoutMs` | `POKESTUB_UPSTREAM_TIMEOUT_MS` | `--upstream-timeout-ms` | `30000` |
/// | `rewriteUpstreamLinks` | `POKESTUB_REWRITE_UPSTREAM_LINKS` | `--rewrite-upstream-links` | `true` |
/// | `recording.redactHeaders` | `POKESTUB_RECORDING_REDACT_HEADERS` | `--recording-redact-headers` | `Authorization, Cookie, Set-Cookie, X-Api-Key, X-Auth-Token` |
/// | `recording.redactQueryParameters` | `POKESTUB_RECORDING_REDACT_QUERY_PARAMETERS` | `--recording-redact-query-parameters` | `token, key, apikey, secret, password, …` |
/// | `recording.largeBodyBytes` | `POKESTUB_RECORDING_LARGE_BODY_BYTES` | `--recording-large-body-bytes` | `65536` |
/// | `watchStubs` | `POKESTUB_WATCH_STUBS` | `--watch-stubs` | `true`: reload when stub files change (inotify) |
/// | `preloadBodyFiles` | `POKESTUB_PRELOAD_BODY_FILES` | `--preload-body-files` | `false`: read body files at first use |
/// | `adminToken` | `POKESTUB_ADMIN_TOKEN` | `--admin-token` | none; required when `host` is not loopback |
/// | `adminAllowUnauthenticated` | `POKESTUB_ADMIN_ALLOW_UNAUTHENTICATED` | `--admin-allow-unauthenticated` | `false` |
/// | `adminPort` | `POKESTUB_ADMIN_PORT` | `--admin-port` | none: the admin API shares `port` |
/// | `limits.maxConnections` | `POKESTUB_LIMITS_MAX_CONNECTIONS` | `--limits-max-connections` | `1024` |
/// | `limits.idleTimeoutSeconds` | `POKESTUB_LIMITS_IDLE_TIMEOUT_SECONDS` | `--limits-idle-timeout-seconds` | `60` |
/// | `limits.headerTimeoutSeconds` | `POKESTUB_LIMITS_HEADER_TIMEOUT_SECONDS` | `--limits-header-timeout-seconds` | `10` |
/// | `limits.bodyTimeoutSeconds` | `POKESTUB_LIMITS_BODY_TIMEOUT_SECONDS` | `--limits-body-timeout-seconds` | `60` |
/// | `limits.maxBodyBytes` | `POKESTUB_LIMITS_MAX_BODY_BYTES` | `--limits-max-body-bytes` | `16777216` |
/// | `limits.maxHeaderBytes` | `POKESTUB_LIMITS_MAX_HEADER_BYTES` | `--limits-max-header-bytes` | `32768` |
/// | `sessions.max` | `POKESTUB_SESSIONS_MAX` | `--sessions-max` | `256` |
/// | `sessions.maxStubs` | `POKESTUB_SESSIONS_MAX_STUBS` | `--sessions-max-stubs` | `1000` |
/// | `sessions.journalMaxEntries` | `POKESTUB_SESSIONS_JOURNAL_MAX_ENTRIES` | `--sessions-journal-max-entries` | `1000` |
/// | `sessions.idleTimeoutSeconds` | `POKESTUB_SESSIONS_IDLE_TIMEOUT_SECONDS` | `--sessions-idle-timeout-seconds` | `600` |
///
/// In `config.json` values have their JSON types: numbers are JSON numbers, booleans `true` or `false`,
/// lists arrays of strings, and `adminPort` may be `null`; a quoted `"8080"` or `"false"` is refused, naming
/// the key. Environment variables and flags are text: digits, `true` or `false`, comma-separated lists (an
/// empty value turns redaction off), and an empty `adminPort` for none.
///
/// When a config file is used, a relative `stubs` is relative to that file's folder, whether the file sets
/// `stubs` or leaves the default: `--config /etc/pokestub/config.json` serves `/etc/pokestub/stubs`. A
/// `stubs` from `POKESTUB_STUBS` or `--stubs` is relative to the working directory, and so is the default
/// when no config file is used.
public struct Configuration: Sendable, Equatable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The TCP port; 0 lets the system pick a free one.
    public var port = 8080
    /// The stub root.
    public var stubs = "stubs"
    /// What to do with requests.
    public var mode = ServeMode.replay
    /// The upstream base URL, e.g. `https://pokeapi.co`.
    public var upstream = "https://pokeapi.co"
    /// The most serve events the request journal keeps; 0 turns it off.
    public var journalMaxEntries = 10_000
    /// The most request-body bytes the journal keeps over all its events; older events go first beyond it.
    public var journalMaxBodyBytes = 64 << 20
    /// The least serious log level written.
    public var logLevel = LogLevel.info
    /// Whether the stub root is watched and reloaded on change (inotify, debounced), besides SIGHUP.
    public var watchStubs = true
    /// Whether `__files/` bodies are read at load, so a stub keeps its body when the file is deleted later,
    /// rather than at first use (the default, as in WireMock: memory holds only the bodies clients ask for).
    public var preloadBodyFiles = false
    /// The bearer token admin requests must carry (`Authorization: Bearer …`), or `nil`.
    public var adminToken: String?
    /// Whether the admin API may be served off loopback without a token (loudly warned about).
    public var adminAllowUnauthenticated = false
    /// A port of its own for the admin API (then the main port answers 404 under `/__admin`), or `nil`.
    public var adminPort: Int?
    /// Connection and size limits, applied through libmicrohttpd.
    public var limits = Limits()
    /// Limits of per-job sessions.
    public var sessions = SessionLimits()

    /// Limits on what clients may send and hold open.
    public struct Limits: Sendable, Equatable {
        /// The most connections open at once.
        public var maxConnections = 1_024
        /// Seconds a connection may stay idle before it is closed.
        public var idleTimeoutSeconds = 60
        /// Seconds a client has for a request line and its header fields, however steadily it sends
        /// (slowloris); a new connection's clock starts when it is accepted.
        public var headerTimeoutSeconds = 10
        /// Seconds a client has for a request body once its header fields are in.
        public var bodyTimeoutSeconds = 60
        /// The largest request body, in bytes (413 beyond).
        public var maxBodyBytes = 16 << 20
        /// Memory for one request line and its headers, in bytes (431 beyond).
        public var maxHeaderBytes = 32 << 10

        /// The defaults.
        public init() {}
    }

    /// Whether `host` is a loopback address, where the admin API needs no token.
    public var bindsLoopbackOnly: Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
    /// The upstream connect timeout, in milliseconds.
    public var upstreamConnectTimeoutMilliseconds = 5_000
    /// The upstream total timeout per exchange, in milliseconds.
    public var upstreamTimeoutMilliseconds = 30_000
    /// Whether upstream links in served bodies point at pokestub (see ``LinkRewriter``).
    public var rewriteUpstreamLinks = true
    /// Redaction and body placement for recordings.
    public var recording = RecordingOptions()

    /// The built-in defaults.
    public init() {}

    /// Every key, in the order of the table above.
    public static let keys = [
        "host", "port", "stubs", "mode", "upstream", "journal.maxEntries", "journal.maxBodyBytes", "logLevel",
        "upstreamConnectTimeoutMs",
        "upstreamTimeoutMs", "rewriteUpstreamLinks", "recording.redactHeaders", "recording.redactQueryParameters",
        "recording.largeBodyBytes", "watchStubs", "preloadBodyFiles", "adminToken", "adminAllowUnauthenticated",
        "adminPort",
        "limits.maxConnections",
        "limits.idleTimeoutSeconds", "limits.headerTimeoutSeconds", "limits.bodyTimeoutSeconds",
        "limits.maxBodyBytes", "limits.maxHeaderBytes", "sessions.max",
        "sessions.maxStubs", "sessions.journalMaxEntries", "sessions.idleTimeoutSeconds",
    ]

    /// The environment variable for a key: `journal.maxEntries` gives `POKESTUB_JOURNAL_MAX_ENTRIES`.
    public static func environmentVariable(for key: String) -> String {
        var name = "POKESTUB_"
        for character in key {
            if character == "." {
                name += "_"
            } else if character.isUppercase {
                name += "_\(character)"
            } else {
                name += character.uppercased()
            }
        }
        return name
    }

    /// Sets one key from `config.json`, where values have their JSON types: a number for a number, `true` or
    /// `false` for a boolean, an array of strings for a list, and `null` for "none" where a key allows it.
    ///
    /// - Parameters:
    ///   - key: A key from ``keys``.
    ///   - value: The JSON value. A string where a number or a boolean belongs (`"port": "8080"`) is refused.
    ///   - origin: Where it came from, for the error message (the config file's path).
    /// - Throws: ``ConfigurationError`` naming the key when it is unknown or the value is invalid.
    public mutating func set(_ key: String, to value: JSONValue, from origin: String) throws(ConfigurationError) {
        try set(key, to: .json(value), from: origin)
    }

    /// Sets one key from an environment variable or a flag, whose values are text: numbers are digits,
    /// booleans `true` or `false`, lists comma-separated, and an empty `adminPort` means none.
    ///
    /// - Parameters:
    ///   - key: A key from ``keys``.
    ///   - text: The value as written.
    ///   - origin: Where it came from, for the error message (`POKESTUB_PORT`, `--port`).
    /// - Throws: ``ConfigurationError`` naming the key when it is unknown or the value is invalid.
    public mutating func set(_ key: String, toText text: String, from origin: String) throws(ConfigurationError) {
        try set(key, to: .text(text), from: origin)
    }

    /// A value as a layer gives it: typed JSON from `config.json`, text from the environment and flags.
    private enum LayerValue {
        case json(JSONValue)
        case text(String)

        /// How the value reads in an error message: text as written, JSON with its type.
        var quoted: String {
            switch self {
            case .text(let text): text.debugDescription
            case .json(.string(let text)): "the string \(text.debugDescription)"
            case .json(.integer), .json(.double): "the number \(json.serializedString())"
            case .json(.array): "an array"
            case .json(.object): "an object"
            case .json(.null), .json(.bool): json.serializedString()
            }
        }

        private var json: JSONValue {
            if case .json(let value) = self { return value }
            return .null
        }
    }

    private mutating func set(_ key: String, to value: LayerValue, from origin: String) throws(ConfigurationError) {
        func fail(_ message: String) -> ConfigurationError {
            ConfigurationError(key: key, origin: origin, message: message)
        }
        func text() throws(ConfigurationError) -> String {
            switch value {
            case .text(let text): return text
            case .json(.string(let text)): return text
            case .json: throw fail("must be a string, not \(value.quoted)")
            }
        }
        func integer(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            let parsed: Int?
            switch value {
            case .text(let text): parsed = Int(text.trimmingCharacters(in: .whitespaces))
            case .json(.string):
                throw fail("must be a JSON number, not \(value.quoted) (write it without quotes)")
            case .json(let json): parsed = json.intValue
            }
            guard let parsed, range.contains(parsed) else {
                throw fail(
                    "must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(value.quoted)")
            }
            return parsed
        }
        func bool() throws(ConfigurationError) -> Bool {
            switch value {
            case .json(.bool(let flag)): return flag
            case .json(.string):
                throw fail("must be a JSON boolean, true or false, not \(value.quoted) (write it without quotes)")
            case .json: throw fail("must be true or false, not \(value.quoted)")
            case .text(let text):
                switch text.trimmingCharacters(in: .whitespaces).lowercased() {
                case "true": return true
                case "false": return false
                default: throw fail("must be true or false, not \(value.quoted)")
                }
            }
        }
        func list() throws(ConfigurationError) -> [String] {
            switch value {
            case .json(.array(let items)):
                var names: [String] = []
                for item in items {
                    guard case .string(let name) = item else { throw fail("must be an array of strings") }
                    names.append(name)
                }
                return names
            case .json: throw fail("must be an array of strings, not \(value.quoted)")
            case .text(let text):
                return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }
            }
        }
        /// `null` in JSON or empty text: the key's "none".
        var isNone: Bool {
            switch value {
            case .json(.null): true
            case .text(let text): text.trimmingCharacters(in: .whitespaces).isEmpty
            case .json: false
            }
        }
        switch key {
        case "adminToken":
            let token = try text()
            guard token.count >= 16, !token.contains(where: { $0.isWhitespace }) else {
                throw fail(
                    "must be at least 16 characters without spaces (use a random one, e.g. openssl rand -hex 32)")
            }
            adminToken = token
        case "watchStubs":
            watchStubs = try bool()
        case "preloadBodyFiles":
            preloadBodyFiles = try bool()
        case "adminAllowUnauthenticated":
            adminAllowUnauthenticated = try bool()
        case "adminPort":
            adminPort = isNone ? nil : try integer(0...65_535)
        case "limits.maxConnections":
            limits.maxConnections = try integer(1...100_000)
        case "limits.idleTimeoutSeconds":
            limits.idleTimeoutSeconds = try integer(1...86_400)
        case "limits.headerTimeoutSeconds":
            limits.headerTimeoutSeconds = try integer(1...3_600)
        case "limits.bodyTimeoutSeconds":
            limits.bodyTimeoutSeconds = try integer(1...86_400)
        case "limits.maxBodyBytes":
            limits.maxBodyBytes = try integer(1_024...(1 << 30))
        case "limits.maxHeaderBytes":
            limits.maxHeaderBytes = try integer(8_192...(1 << 20))
        case "sessions.max":
            sessions.maxSessions = try integer(0...100_000)
        case "sessions.maxStubs":
            sessions.maxStubsPerSession = try integer(0...1_000_000)
        case "sessions.journalMaxEntries":
            sessions.journalCapacity = try integer(0...1_000_000)
        case "sessions.idleTimeoutSeconds":
            sessions.defaultIdleSeconds = try integer(1...86_400)
        case "upstreamConnectTimeoutMs":
            upstreamConnectTimeoutMilliseconds = try integer(1...600_000)
        case "upstreamTimeoutMs":
            upstreamTimeoutMilliseconds = try integer(1...3_600_000)
        case "rewriteUpstreamLinks":
            rewriteUpstreamLinks = try bool()
        case "recording.redactHeaders":
            recording.redactedHeaders = try list()
        case "recording.redactQueryParameters":
            recording.redactedQueryWords = try list()
        case "recording.largeBodyBytes":
            recording.largeBodyBytes = try integer(0...(1 << 30))
        case "host":
            let host = try text()
            guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw fail("must be an IP address or host name, not \(host.debugDescription)")
            }
            self.host = host
        case "port":
            port = try integer(0...65_535)
        case "stubs":
            let path = try text()
            guard !path.isEmpty else { throw fail("must be a folder path") }
            stubs = path
        case "mode":
            let name = try text()
            guard let mode = ServeMode(rawValue: name) else {
                throw fail(
                    "must be one of \(ServeMode.allCases.map(\.rawValue).joined(separator: ", ")), not \(name.debugDescription)"
                )
            }
            self.mode = mode
        case "upstream":
            let url = try text()
            // Scheme and host are case-insensitive (RFC 3986 §3.1, §3.2.2): compare and keep them lower-cased,
            // so `HTTPS://PokeAPI.co` is accepted and upstream links in bodies are recognised.
            guard var components = URLComponents(string: url),
                let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
                let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil
            else {
                throw fail("must be an http or https base URL such as https://pokeapi.co, not \(url.debugDescription)")
            }
            components.scheme = scheme
            components.host = host.lowercased()
            let normalized = components.string ?? url
            upstream = normalized.hasSuffix("/") ? String(normalized.dropLast()) : normalized
        case "journal.maxEntries":
            journalMaxEntries = try integer(0...10_000_000)
        case "journal.maxBodyBytes":
            journalMaxBodyBytes = try integer(0...(1 << 40))
        case "logLevel":
            let name = try text()
            guard let level = LogLevel.allCases.first(where: { $0.name == name }) else {
                throw fail("must be one of \(LogLevel.allCases.map(\.name).joined(separator: ", "))")
            }
            logLevel = level
        default:
            throw fail("unknown key (known keys: \(Configuration.keys.joined(separator: ", ")))")
        }
    }

    /// Applies a `config.json` document.
    ///
    /// - Parameters:
    ///   - data: The file's bytes: a JSON object; nested objects give dotted keys (`{"journal": {"maxEntries": 5}}`).
    ///   - path: The file's path, for errors and for resolving a relative `stubs` (the file's or the default)
    ///     against the file's folder.
    /// - Throws: ``ConfigurationError`` for invalid JSON, an unknown key or an invalid value.
    public mutating func apply(configFile data: Data, path: String) throws(ConfigurationError) {
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch {
            let position = error.line.map { ":\($0)" } ?? ""
            throw ConfigurationError(key: "", origin: path + position, message: error.message)
        }
        guard case .object = json else {
            throw ConfigurationError(key: "", origin: path, message: "must be a JSON object")
        }
        try apply(json, prefix: "", origin: path)
        // The file's folder is where its stubs are: a `stubs` it sets, or the default ("stubs") when it sets none.
        // Layers applied later (environment, flags) replace the path and stay relative to the working directory.
        if !stubs.hasPrefix("/") {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty && folder != "." { stubs = (folder as NSString).appendingPathComponent(stubs) }
        }
    }

    private mutating func apply(_ json: JSONValue, prefix: String, origin: String) throws(ConfigurationError) {
        guard case .object(let members) = json else { return }
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            let key = prefix.isEmpty ? name : "\(prefix).\(name)"
            if case .object = value, !Configuration.keys.contains(key) {
                try apply(value, prefix: key, origin: origin)
            } else {
                try set(key, to: value, from: origin)
            }
        }
    }

    /// Applies every `POKESTUB_*` variable that names a key.
    ///
    /// - Parameter environment: The environment (inject it; tests never call `setenv`).
    public mutating func apply(environment: [String: String]) throws(ConfigurationError) {
        for key in Configuration.keys {
            let variable = Configuration.environmentVariable(for: key)
            if let value = environment[variable] { try set(key, toText: value, from: variable) }
        }
    }
}

/// Configuration that cannot be used. The daemon exits with status 78 (`EX_CONFIG`, sysexits(3)).
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key at fault (`port`), or empty for a whole-file problem.
    public var key: String
    /// Where the value came from: a file path, an environment variable or a flag.
    public var origin: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(key: String, origin: String, message: String) {
        self.key = key
        self.origin = origin
        self.message = message
    }

    public var description: String {
        key.isEmpty ? "\(origin): \(message)" : "invalid configuration \(key) (from \(origin)): \(message)"
    }
}
