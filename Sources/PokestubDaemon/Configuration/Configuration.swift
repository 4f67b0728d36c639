import Foundation
import PokestubCore

/// Everything the daemon needs to start, resolved from four layers, each overriding the one before:
/// built-in defaults < `config.json` < `POKESTUB_*` environment variables < command-line flags.
///
/// The keys, with their environment variables, flags, defaults and what they take, are listed once, in
/// ``ConfigurationKey/all``; the table of `Docs/Configuration.md` and `serve --help` are rendered from that list.
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
    /// A file `pokestub serve` writes the bound port to once it serves (the port in decimal and a newline, put
    /// in place by a rename, so a reader never sees it half written), or `nil`. A relative path is relative to
    /// the working directory. With port 0 this is how a test runner learns the port the system picked.
    /// ``PokestubDaemon`` itself writes no file: its ``PokestubDaemon/port`` says the same in process.
    public var portFile: String?
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
    /// The most response-body bytes the journal keeps over all its events (what the dashboard and HAR export
    /// show); beyond it the oldest events lose their response body and keep the rest.
    public var journalMaxResponseBodyBytes = 64 << 20
    /// The most request-body bytes the daemon's journal and every session's keep together.
    public var journalMaxTotalBodyBytes = 256 << 20
    /// The least serious log level written.
    public var logLevel = LogLevel.info
    /// Whether the stub root is watched and reloaded on change (inotify on Linux, kqueue on Darwin; debounced),
    /// besides SIGHUP.
    public var watchStubs = true
    /// Whether `__files/` bodies are read at load, so a stub keeps its body when the file is deleted later,
    /// rather than at first use (the default, as in WireMock: memory holds only the bodies clients ask for).
    public var preloadBodyFiles = false
    /// Whether every stub's response is a WireMock response template, not only those with
    /// `"transformers": ["response-template"]` (WireMock's `--global-response-templating`).
    public var globalResponseTemplating = false
    /// Whether the stub tree is all or nothing: any problem of any file, a stub WireMock 2.35 would load and
    /// fail on only when hit included, stops `serve` from starting and keeps a reload from replacing the stubs
    /// being served. Otherwise (the default, as WireMock serves a tree) every file that loads is served, a stub
    /// using a feature pokestub lacks or a body file it cannot serve answers 500 naming it, and a file with
    /// any other problem is left out; each is logged and counted by `GET /__admin/health` (``StubLoader``).
    public var strict = false
    /// The bearer token admin requests must carry (`Authorization: Bearer …`), or `nil`.
    public var adminToken: String?
    /// The file ``Configuration/resolve(configFile:environment:flags:workingDirectory:)`` reads ``adminToken``
    /// from (``AdminTokenFile``), or `nil`. Setting both is refused.
    public var adminTokenFile: String?
    /// Whether the admin API may be served off loopback without a token (loudly warned about).
    public var adminAllowUnauthenticated = false
    /// Whether `POST /__admin/shutdown` may stop the daemon (with the admin token when one is set; never through
    /// a session's admin URL).
    public var adminAllowShutdown = true
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
        /// The most bytes journals, runtime stubs, admin answers and parsed request bodies hold together
        /// (``MemoryBudget``).
        public var maxMemoryBytes = 1 << 30
        /// The largest string a response template may make, in bytes: a templated answer's body, a header
        /// value, a helper's result (``TemplateLimits/maxBytes``).
        public var maxResponseBytes = TemplateLimits.defaultMaxBytes
        /// The steps one request's response templates may take (``TemplateLimits/maxSteps``).
        public var maxTemplateSteps = TemplateLimits.defaultMaxSteps

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
}
