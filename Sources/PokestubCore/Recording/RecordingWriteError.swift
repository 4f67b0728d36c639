/// A recording could not be written.
public struct RecordingWriteError: Error, Sendable, CustomStringConvertible {
    /// The file or folder.
    public var path: String
    /// The system's reason, e.g. `No space left on device`.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - path: The file or folder.
    ///   - message: The reason.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "cannot write \(path): \(message)" }
}
