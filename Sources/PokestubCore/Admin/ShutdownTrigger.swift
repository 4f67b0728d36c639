import PokestubLocking

/// What `POST /__admin/shutdown` calls: the owner of the daemon's lifetime (`pokestub serve`) installs a handler
/// that stops it gracefully; without one (an engine embedded in a test) the route answers 409.
///
/// Whether shutdown is allowed at all is fixed when the daemon is built (config `adminAllowShutdown`).
package final class ShutdownTrigger: Sendable {
    /// Whether `POST /__admin/shutdown` may stop the daemon.
    package let isAllowed: Bool
    private let handler = Locked<(@Sendable () -> Void)?>(nil)

    /// Creates a trigger with no handler.
    ///
    /// - Parameter isAllowed: Whether the admin API may stop the daemon (`adminAllowShutdown`).
    package init(isAllowed: Bool = true) {
        self.isAllowed = isAllowed
    }

    /// Installs what stops the daemon; it is called at most once per shutdown request, on a server thread,
    /// after the 200 has been handed to the server, and must return quickly (signal another thread).
    package func setHandler(_ stop: @escaping @Sendable () -> Void) {
        handler.withLock { $0 = stop }
    }

    /// The installed handler, or `nil`.
    var current: (@Sendable () -> Void)? { handler.withLock { $0 } }
}
