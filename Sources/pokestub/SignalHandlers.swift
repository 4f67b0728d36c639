import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs closures on signals through Dispatch rather than async-signal-unsafe handlers.
enum SignalHandlers {
    private static let queue = DispatchQueue(label: "pokestub.signals")

    /// Handles `signal` with `action` from now on; keep the returned source alive for as long as needed.
    ///
    /// The signal is also unblocked on the calling thread: a process inherits its parent's signal mask, and a
    /// parent that starts pokestub from a worker thread (a test runner, a Dispatch-based launcher) passes on
    /// a mask blocking SIGINT and SIGHUP, which then never arrived (SIGINT took the test's 20 s fallback to
    /// SIGTERM to stop the daemon).
    static func on(_ signal: Int32, _ action: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        Glibc.signal(signal, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
        source.setEventHandler(handler: action)
        source.resume()
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signal)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        return source
    }
}
