import Foundation
import PokestubLocking

/// Facts about the running daemon that the admin API reports: where it is reached, since when, and in
/// which serve mode; and, behind the same one lock, everything else a request of the daemon's scope reads
/// that can change while it runs (``Serving``): the stubs, the global delay, the upstream bases links are
/// rewritten from.
///
/// The addresses are fixed when the daemon is built (its listeners are bound first, so their ports are
/// known); the mode changes when a recording run starts or stops, the rest through the admin API and reloads.
package final class ServerInfo: Sendable {
    /// The serve mode now: the configured one, or the one a recording run started through the admin API set.
    package var mode: ServeMode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }
    private let state: Locked<Serving>
    /// When the daemon started.
    package let startedAt: Date
    /// The base URL clients reach the daemon at, e.g. `http://127.0.0.1:8080` (no trailing slash).
    package let baseURL: String
    /// The base URL of the admin API's own port (config `adminPort`), e.g. `http://127.0.0.1:8081`; `nil` when
    /// the admin API is served on ``baseURL``.
    package let adminBaseURL: String?

    /// What a request of the daemon's scope reads, all at once (``serving``): one uncontended lock per request.
    struct Serving: Sendable {
        /// The serve mode.
        var mode: ServeMode
        /// Milliseconds added to every stub answer of the daemon's scope (``ServeSettings``).
        var fixedDelayMilliseconds = 0
        /// The upstream base URLs whose links are pointed at the daemon (``LinkRewriter``).
        var upstreamBases: [String] = []
        /// Changes with ``upstreamBases``, so bodies rewritten for the old bases are not reused.
        var linkGeneration = 0
        /// ``upstreamBases`` compiled for ``ServerInfo/baseURL``, the patterns most requests use, or `nil`
        /// until a ``LinkRewriter`` sets the bases.
        var linkPatterns: LinkPatterns?
        /// The daemon's stubs as its store last published them (``StubStore/publish(to:)``), or `nil` until then.
        var stubs: StubIndex?
    }

    /// Creates the facts.
    ///
    /// - Parameters:
    ///   - mode: The configured serve mode.
    ///   - startedAt: When the daemon started.
    ///   - baseURL: Where clients reach it.
    ///   - adminBaseURL: Where its admin port is, if it has one.
    package init(
        mode: ServeMode, startedAt: Date = Date(), baseURL: String = "http://127.0.0.1", adminBaseURL: String? = nil
    ) {
        state = Locked(Serving(mode: mode))
        self.startedAt = startedAt
        self.baseURL = baseURL
        self.adminBaseURL = adminBaseURL
    }

    /// Everything a request of the daemon's scope reads that can change, in one lock.
    var serving: Serving { state.withLock { $0 } }

    /// Changes what requests read, in one lock.
    func update<T>(_ body: (inout Serving) -> T) -> T {
        state.withLock { body(&$0) }
    }
}
