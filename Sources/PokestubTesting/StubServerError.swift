/// Why an in-process test server did not start.
public struct StubServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the mapping, file or address involved.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What went wrong.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
