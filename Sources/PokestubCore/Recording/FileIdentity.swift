#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which file a path names and when it last changed: equal identities mean the file was not replaced or
/// written in between (an atomic write renames a new file into place, so its inode changes).
struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var modifiedNanoseconds: Int
    var changed: Int64
    var changedNanoseconds: Int

    /// The identity of the file at a path, or `nil` when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        let (modification, change) = status.modificationAndChange
        modified = Int64(modification.tv_sec)
        modifiedNanoseconds = Int(modification.tv_nsec)
        changed = Int64(change.tv_sec)
        changedNanoseconds = Int(change.tv_nsec)
    }
}
