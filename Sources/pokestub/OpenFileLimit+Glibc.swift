#if os(Linux)
    import Glibc

    /// Linux's part of ``OpenFileLimit``: the resource's name as getrlimit(2) takes it (Glibc imports
    /// `RLIMIT_NOFILE` as an enum, `__rlimit_resource`, and the calls take an `Int32`), and the stub tree
    /// watcher's share of the limit.
    enum OpenFileLimitPlatform {
        /// `RLIMIT_NOFILE`.
        static let resource = Int32(RLIMIT_NOFILE.rawValue)

        /// Descriptors the stub tree watcher holds beyond ``OpenFileLimit/processDescriptors``: none, its one
        /// inotify instance is counted there.
        ///
        /// - Parameter softLimit: Not used on Linux.
        /// - Returns: 0.
        static func stubTreeWatcherDescriptors(softLimit: Int) -> Int { 0 }
    }
#endif
