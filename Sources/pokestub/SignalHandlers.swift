import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs closures on signals through Dispatch rather than async-signal-unsafe handlers.
///
/// Portable as written: `signal(3)`, `sigemptyset(3)`, `sigaddset(3)`, `pthread_sigmask(2)` and the signal
/// numbers are POSIX and spelled the same by Glibc and Darwin, so there is no platform file. The signal is
/// set to `SIG_IGN` first so its default action (ending the process) does not run; the Dispatch source still
/// sees it, on Darwin through kqueue's `EVFILT_SIGNAL`, which records signals whatever their disposition
/// (kqueue(2); <https://developer.apple.com/documentation/dispatch/dispatchsource/makesignalsource(signal:queue:)>).
enum SignalHandlers {
    private static let queue = DispatchQueue(label: "pokestub.signals")

    /// Handles `signalNumber` with `action` from now on; keep the returned source alive for as long as needed.
    ///
    /// The signal is also unblocked on the calling thread: a process inherits its parent's signal mask, and a
    /// parent that starts pokestub from a worker thread (a test runner, a Dispatch-based launcher) passes on
    /// a mask blocking SIGINT and SIGHUP, which then never arrived (SIGINT took the test's 20 s fallback to
    /// SIGTERM to stop the daemon).
    ///
    /// Returns once the source is installed, so a signal sent from then on is handled. `resume()` installs it
    /// later, on Dispatch's own thread (on Linux it then replaces the `SIG_IGN` set here with its handler and
    /// reads the signal from a `signalfd`), and until then the signal is ignored: a SIGINT sent the moment the
    /// daemon said it was listening was lost on a busy machine. The registration handler is submitted "as soon
    /// as the source has been fully set up and is ready to start delivering events"
    /// (<https://developer.apple.com/documentation/dispatch/dispatchsourceprotocol/setregistrationhandler(handler:)>).
    static func on(_ signalNumber: Int32, _ action: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
        let installed = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { installed.signal() }
        source.setEventHandler(handler: action)
        source.resume()
        // Not called on `queue`, whose turn would never come; a minute covers any load, and is not a stall if
        // Dispatch never answers.
        if installed.wait(timeout: .now() + .seconds(60)) == .timedOut {
            Console.error("pokestub: the handler of signal \(signalNumber) was not installed within 60 s")
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        return source
    }

    /// Ignores SIGPIPE from now on, so a write to a connection its peer has closed fails with `EPIPE` instead
    /// of ending the daemon. libmicrohttpd and libcurl suppress it on their own sockets where the platform
    /// offers a way (`MSG_NOSIGNAL` on Linux, the `SO_NOSIGPIPE` socket option on Darwin), and libmicrohttpd's
    /// manual ("SIGPIPE") leaves the rest to the application; ignoring it covers every descriptor on both.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
