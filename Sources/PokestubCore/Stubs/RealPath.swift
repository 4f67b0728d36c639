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
