import Foundation
import PokestubLocking

/// Facts about the running daemon that the admin API reports: where it is reached, since when, and in
/// which serve mode.
///
/// The addresses are fixed when the daemon is built (its listeners are bound first, so their ports are
/// known); the mode is the one fact that changes, when a recording run starts or stops.
package final class ServerInfo: Sendable {
    /// The serve mode now: the configured one, or the one a recording run started through the admin API set.
    /// Reading it takes one uncontended lock (it is read on every request).
    package var mode: ServeMode {
        get { currentMode.withLock { $0 } }
        set { currentMode.withLock { $0 = newValue } }
    }
    private let currentMode: Locked<ServeMode>
    /// When the daemon started.
    package let startedAt: Date
    /// The base URL clients reach the daemon at, e.g. `http://127.0.0.1:8080` (no trailing slash).
    package let baseURL: String
    /// The base URL of the admin API's own port (config `adminPort`), e.g. `http://127.0.0.1:8081`; `nil` when
    /// the admin API is served on ``baseURL``.
    package let adminBaseURL: String?

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
        currentMode = Locked(mode)
        self.startedAt = startedAt
        self.baseURL = baseURL
        self.adminBaseURL = adminBaseURL
    }
}
