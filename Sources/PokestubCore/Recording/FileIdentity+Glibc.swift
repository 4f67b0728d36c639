#if os(Linux)
    import Glibc

    extension stat {
        /// When the file's data last changed and when its status (links, owner, mode, data) last changed:
        /// `st_mtim` and `st_ctim` on Linux (stat(2), `struct timespec` since Linux 2.6 and POSIX.1-2008).
        var modificationAndChange: (modification: timespec, change: timespec) { (st_mtim, st_ctim) }
    }
#endif
