#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `realpath(3)`: the absolute path with symbolic links, `.` and `..` resolved, or `nil` when it cannot be
/// resolved (`errno` says why). Foundation's `resolvingSymlinksInPath()` does the same a component at a time,
/// several times slower, and returns the input unchanged on failure.
func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// `path` with symbolic links resolved in the part of it that exists, the missing rest appended as it is: the
/// real path a file will have once the folders missing on its way are made (as plain folders, which resolve to
/// themselves). `path` itself when no part of it resolves.
func realPathOfExistingPart(_ path: String) -> String {
    var existing = Substring(path)
    var missing: [Substring] = []
    while true {
        if let resolved = realPath(String(existing)) {
            return ([Substring(resolved)] + missing.reversed()).joined(separator: "/")
        }
        guard let slash = existing.lastIndex(of: "/"), slash != existing.startIndex else { return path }
        missing.append(existing[existing.index(after: slash)...])
        existing = existing[..<slash]
    }
}
