import Foundation
import Synchronization

/// Facts about the running server that the admin API reports: base URL, mode, start time.
public final class ServerInfo: Sendable {
    /// The serve mode now: the configured one, or the one a recording started through the admin API set.
    /// Reading it is one atomic load (it is read on every request).
    public var mode: ServeMode {
        get { ServeMode.allCases[modeIndex.load(ordering: .acquiring)] }
        set { modeIndex.store(ServeMode.allCases.firstIndex(of: newValue) ?? 0, ordering: .releasing) }
    }
    private let modeIndex: Atomic<Int>
    /// When the server started.
    public let startedAt: Date
    private let baseURLState: Mutex<String>
    private let adminBaseURLState = Mutex<String?>(nil)

    /// Creates the facts; the base URL is set once the server knows its port.
    public init(mode: ServeMode, startedAt: Date = Date(), baseURL: String = "http://127.0.0.1") {
        modeIndex = Atomic(ServeMode.allCases.firstIndex(of: mode) ?? 0)
        self.startedAt = startedAt
        baseURLState = Mutex(baseURL)
    }

    /// The base URL clients reach the server at, e.g. `http://127.0.0.1:8080` (no trailing slash).
    public var baseURL: String {
        get { baseURLState.withLock { $0 } }
        set { baseURLState.withLock { $0 = newValue } }
    }

    /// The base URL of the admin API's own port (config `adminPort`), e.g. `http://127.0.0.1:8081`; `nil` when
    /// the admin API is served on ``baseURL``.
    public var adminBaseURL: String? {
        get { adminBaseURLState.withLock { $0 } }
        set { adminBaseURLState.withLock { $0 = newValue } }
    }
}
