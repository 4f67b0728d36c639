#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tells the service manager what the daemon is doing, in systemd's notify protocol (sd_notify(3)):
/// datagrams such as `READY=1` to the socket the service manager named. Does nothing when none is named, so
/// the same binary runs anywhere.
///
/// The messages are composed here; where they go is the platform's: on Linux the socket named by systemd's
/// environment variable (`SystemdNotifier+Glibc.swift`); on Darwin nowhere (`SystemdNotifier+Darwin.swift`),
/// as launchd has no notify protocol: it considers a job running once it is started.
struct SystemdNotifier {
    /// Where notifications go: a socket path, or `@name` for Linux's abstract namespace; `nil` for nowhere.
    let address: String?

    /// Whether a service manager listens.
    var isActive: Bool { address != nil }

    /// Tells systemd the daemon is listening (`READY=1`) and what it serves (`STATUS=`).
    func ready(status: String) { send("READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())") }

    /// Tells systemd a reload started (`RELOADING=1` with the monotonic time systemd 253+ wants).
    func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())") }

    /// Tells systemd the daemon is stopping.
    func stopping() { send("STOPPING=1") }

    /// Updates the status line `systemctl status` shows.
    func status(_ text: String) { send("STATUS=\(text)") }

    /// `CLOCK_MONOTONIC` in microseconds, the clock systemd reads `MONOTONIC_USEC` against.
    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
