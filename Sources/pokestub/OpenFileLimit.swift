import Foundation
import PokestubCore
import PokestubDaemon
import PokestubServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The open-files limit (`RLIMIT_NOFILE`) `pokestub serve` needs, checked and raised at start, before anything
/// is bound, so the configured `limits.maxConnections` is what it really serves, whoever started it: a shell,
/// systemd, or launchd, which starts jobs with a soft limit of 256 (Homebrew's `service do` block has no key for
/// resource limits, and launchd.plist(5)'s `SoftResourceLimits` would have to be kept in a plist by hand).
///
/// What the daemon needs (``need(for:maxConnections:softLimit:)``), per HTTP server (the main one, and the admin
/// one with `adminPort`): the connections libmicrohttpd accepts, `limits.maxConnections` and its overflow reserve
/// of a sixteenth (at least 8) answered 503 (``HTTPServer/acceptedConnections(_:)``: 1,088 for the default
/// 1,024), its listening socket, and 3 per server thread (one per core: its epoll descriptor on Linux, its
/// wake-up eventfd or pipe, a `__files/` body it reads); then 96 for the rest of the process (standard
/// streams, Dispatch's event, timer and signal descriptors, the inotify instance, the port file, a recording
/// being written, and the upstream client's 8 workers, each with a connection and a wake-up socket pair: 24);
/// and on Darwin the stub tree watcher's share (``stubTreeWatcherDescriptors(softLimit:)``). The default
/// configuration on 2 cores needs 1,088 + 1 + 6 + 96 = 1,191 on Linux. Measured there with the shipped stubs:
/// 16 descriptors idle, 1,104 with 1,200 clients connected (1,088 accepted), 24 more once the upstream client
/// has run.
///
/// When the soft limit is lower, it is raised as far as the hard limit allows, as Go programs do at start
/// (go.dev/issue/46279): to the hard limit; where the system refuses that (on Darwin the hard limit is
/// usually `RLIM_INFINITY`, and `setrlimit` takes at most `kern.maxfilesperproc`, failing with `EINVAL` beyond),
/// to `OPEN_MAX` (10,240) or the need, whichever is larger, then `OPEN_MAX`, then the need. A soft limit that
/// already covers the need is left as it is. When even the raised limit is short, `limits.maxConnections` is
/// lowered to what fits, with a warning naming the limit and the need: libmicrohttpd itself, when `accept`
/// fails with `EMFILE`, stops accepting until a connection closes and advises a lower connection limit, so
/// clients past the limit would wait in the listen backlog instead of getting the overflow reserve's 503.
///
/// References: getrlimit(2) and setrlimit(2), POSIX
/// (<https://pubs.opengroup.org/onlinepubs/9799919799/functions/getrlimit.html>); Apple's setrlimit(2), whose
/// COMPATIBILITY section says `setrlimit` no longer accepts `rlim_cur = RLIM_INFINITY` for `RLIMIT_NOFILE`
/// and to use `min(OPEN_MAX, rlim_max)`
/// (<https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/setrlimit.2.html>);
/// XNU's `dosetrlimit` (bsd/kern/kern_resource.c), which answers `EINVAL` above `kern.maxfilesperproc`.
/// getrlimit and setrlimit are the same calls on Linux and Darwin; the platform files hold the resource's
/// name and the stub tree watcher's share.
enum OpenFileLimit {
    /// Descriptors of the process besides its HTTP servers: standard streams, Dispatch, signals, inotify, the
    /// port file, a recording being written (64), and the upstream client's 8 workers (3 each, rounded up: 32).
    static let processDescriptors = 96

    /// Descriptors per server thread: its poll descriptor, its wake-up descriptor, a body file it reads.
    static let descriptorsPerServerThread = 3

    /// `OPEN_MAX` on Darwin (`<sys/syslimits.h>`), the value Apple's setrlimit(2) says to use.
    static let darwinOpenMax = 10_240

    /// Descriptors `pokestub serve` needs with `maxConnections` served at once.
    ///
    /// - Parameters:
    ///   - configuration: Whether there is an admin port (a second server) and a stub tree watcher.
    ///   - maxConnections: The connection limit (`limits.maxConnections`, or a lower one being tried).
    ///   - softLimit: The soft limit the stub tree watcher sizes its share from (Darwin).
    /// - Returns: The descriptors needed.
    static func need(for configuration: Configuration, maxConnections: Int, softLimit: Int) -> Int {
        let server = HTTPServerConfiguration(connectionLimit: maxConnections)
        let perServer =
            HTTPServer.acceptedConnections(server) + 1 + descriptorsPerServerThread * max(1, server.threads)
        let servers = configuration.adminPort == nil ? 1 : 2
        let watcher =
            configuration.watchStubs ? OpenFileLimitPlatform.stubTreeWatcherDescriptors(softLimit: softLimit) : 0
        return servers * perServer + processDescriptors + watcher
    }

    /// The smallest soft limit that covers the need, the watcher's share included.
    static func smallestSufficientLimit(for configuration: Configuration) -> Int {
        var limit = need(for: configuration, maxConnections: configuration.limits.maxConnections, softLimit: 0)
        // The watcher takes at most a quarter of the limit, so this grows by a quarter at most each time.
        for _ in 0..<64 {
            let needed = need(for: configuration, maxConnections: configuration.limits.maxConnections, softLimit: limit)
            if needed <= limit { break }
            limit = needed
        }
        return limit
    }

    /// What ``fit(_:logger:)`` found and did.
    struct Outcome: Equatable {
        /// The soft limit found, `nil` when `getrlimit` failed.
        var softBefore: Int?
        /// The soft limit in force afterwards, `nil` when `getrlimit` failed.
        var softAfter: Int?
        /// The hard limit (`Int.max` for `RLIM_INFINITY`).
        var hard: Int?
        /// The connection limit served: `limits.maxConnections`, or lower when the limit is short.
        var maxConnections: Int
    }

    /// Raises the soft limit when it is below what `configuration` needs, and returns the configuration to
    /// serve: the same, or with `limits.maxConnections` lowered to what the limit allows. Logs what it did.
    ///
    /// - Parameters:
    ///   - configuration: The resolved configuration.
    ///   - logger: Where the raise (info) and a limit still short (warning) are logged.
    /// - Returns: The configuration to serve.
    static func fit(_ configuration: Configuration, logger: Logger) -> Configuration {
        let outcome = fit(configuration, setLimit: setSoftLimit, getLimits: currentLimits)
        var served = configuration
        served.limits.maxConnections = outcome.maxConnections
        guard let before = outcome.softBefore, let soft = outcome.softAfter, let hard = outcome.hard else {
            logger.warning("open files: getrlimit(RLIMIT_NOFILE) failed; the limit was not checked")
            return served
        }
        let requested = configuration.limits.maxConnections
        let needed = need(for: configuration, maxConnections: requested, softLimit: soft)
        let hardText = hard == Int.max ? "unlimited" : String(hard)
        if soft != before {
            logger.info(
                "open files: soft limit raised from \(before) to \(soft) (hard limit \(hardText)); "
                    + "limits.maxConnections \(requested) needs \(needed)")
        }
        if outcome.maxConnections < requested {
            logger.warning(
                "open files: the limit is \(soft) (hard limit \(hardText)), below the \(needed) descriptors "
                    + "limits.maxConnections \(requested) needs; serving at most \(outcome.maxConnections) "
                    + "connections at once instead. Raise the limit (ulimit -n, systemd's LimitNOFILE=, launchd's "
                    + "SoftResourceLimits and HardResourceLimits NumberOfFiles) or lower limits.maxConnections")
        }
        return served
    }

    /// ``fit(_:logger:)`` with the system calls passed in, so the tests can play Darwin's and Linux's answers.
    ///
    /// - Parameters:
    ///   - configuration: The resolved configuration.
    ///   - setLimit: Sets the soft limit; whether it succeeded.
    ///   - getLimits: The soft and hard limits, `nil` when they cannot be read.
    /// - Returns: The limits before and after, and the connection limit to serve.
    static func fit(
        _ configuration: Configuration, setLimit: (Int) -> Bool, getLimits: () -> (soft: Int, hard: Int)?
    ) -> Outcome {
        let requested = configuration.limits.maxConnections
        guard let limits = getLimits() else {
            return Outcome(softBefore: nil, softAfter: nil, hard: nil, maxConnections: requested)
        }
        var soft = limits.soft
        let sufficient = smallestSufficientLimit(for: configuration)
        if soft < sufficient {
            var tried: Set<Int> = []
            for candidate in [limits.hard, max(sufficient, darwinOpenMax), darwinOpenMax, sufficient]
            where candidate > soft && candidate <= limits.hard && tried.insert(candidate).inserted {
                if setLimit(candidate) {
                    soft = getLimits()?.soft ?? candidate
                    break
                }
            }
        }
        // The most connections that fit (the need grows with them), found by bisection; at least 1.
        var (fits, tooMany) = (1, requested + 1)
        if need(for: configuration, maxConnections: requested, softLimit: soft) <= soft { fits = requested }
        while tooMany - fits > 1 && fits < requested {
            let middle = (fits + tooMany) / 2
            if need(for: configuration, maxConnections: middle, softLimit: soft) <= soft {
                fits = middle
            } else {
                tooMany = middle
            }
        }
        return Outcome(softBefore: limits.soft, softAfter: soft, hard: limits.hard, maxConnections: fits)
    }

    /// The soft and hard `RLIMIT_NOFILE` limits (`Int.max` for `RLIM_INFINITY`), `nil` when getrlimit fails.
    private static func currentLimits() -> (soft: Int, hard: Int)? {
        var limit = rlimit()
        guard getrlimit(OpenFileLimitPlatform.resource, &limit) == 0 else { return nil }
        return (Int(clamping: limit.rlim_cur), Int(clamping: limit.rlim_max))
    }

    /// Sets the soft `RLIMIT_NOFILE` limit, keeping the hard one.
    private static func setSoftLimit(_ soft: Int) -> Bool {
        var limit = rlimit()
        guard getrlimit(OpenFileLimitPlatform.resource, &limit) == 0 else { return false }
        limit.rlim_cur = rlim_t(soft)
        return setrlimit(OpenFileLimitPlatform.resource, &limit) == 0
    }
}
