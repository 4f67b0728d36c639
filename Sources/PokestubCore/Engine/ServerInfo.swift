import Foundation
import Synchronization

/// Facts about the running server that the admin API reports: base URL, mode, start time.
public final class ServerInfo: Sendable {
    /// The serve mode.
    public let mode: ServeMode
    /// When the server started.
    public let startedAt: Date
    private let baseURLState: Mutex<String>

    /// Creates the facts; the base URL is set once the server knows its port.
    public init(mode: ServeMode, startedAt: Date = Date(), baseURL: String = "http://127.0.0.1") {
        self.mode = mode
        self.startedAt = startedAt
        baseURLState = Mutex(baseURL)
    }

    /// The base URL clients reach the server at, e.g. `http://127.0.0.1:8080` (no trailing slash).
    public var baseURL: String {
        get { baseURLState.withLock { $0 } }
        set { baseURLState.withLock { $0 = newValue } }
    }
}
