#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// What failed, e.g. `cannot listen on 127.0.0.1:8080`.
    public var message: String
    /// The C `errno` at the failure, when there was one.
    public var errno: Int32?

    /// Creates an error, capturing `errno`'s text when given.
    public init(_ message: String, errno: Int32? = nil) {
        self.message = message
        self.errno = errno
    }

    public var description: String {
        guard let errno, errno != 0 else { return message }
        return "\(message): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
