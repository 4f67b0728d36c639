#if canImport(Darwin)
    import Darwin

    /// Darwin's part of ``OpenFileLimit``: the resource's name as getrlimit(2) takes it (`RLIMIT_NOFILE`, an
    /// `Int32` macro of `<sys/resource.h>`), and the stub tree watcher's share of the limit.
    ///
    /// Written against Apple's getrlimit(2)/setrlimit(2) manual page
    /// (<https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/getrlimit.2.html>)
    /// and never compiled here (no Mac was available).
    enum OpenFileLimitPlatform {
        /// `RLIMIT_NOFILE`.
        static let resource = RLIMIT_NOFILE

        /// Descriptors the stub tree watcher holds: a kqueue watch for every folder and for files up to a
        /// quarter of the soft limit in all, at most 4,096 (256 by default on macOS, so 64). The watcher takes
        /// its budget from here when it starts, after the limit was raised (StubTreeWatcher+Darwin.swift).
        ///
        /// - Parameter softLimit: The soft limit the watcher will start under.
        /// - Returns: The watcher's budget.
        static func stubTreeWatcherDescriptors(softLimit: Int) -> Int {
            min(softLimit / 4, 4_096)
        }
    }
#endif
