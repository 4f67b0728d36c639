/// A recording could not be written.
package struct RecordingWriteError: Error, Sendable, CustomStringConvertible {
    /// The file or folder.
    package var path: String
    /// The system's reason, e.g. `No space left on device`.
    package var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - path: The file or folder.
    ///   - message: The reason.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    package var description: String { "cannot write \(path): \(message)" }
}
