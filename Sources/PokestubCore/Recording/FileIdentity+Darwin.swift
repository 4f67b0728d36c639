#if canImport(Darwin)
    import Darwin

    extension stat {
        /// When the file's data last changed and when its status (links, owner, mode, data) last changed:
        /// `st_mtimespec` and `st_ctimespec` on Darwin, whose `struct stat` names its `timespec` members so
        /// (Apple's stat(2):
        /// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/stat.2.html>).
        var modificationAndChange: (modification: timespec, change: timespec) { (st_mtimespec, st_ctimespec) }
    }
#endif
