/// Whether the server is recording, as `GET /__admin/recordings/status` reports it (`{"status": "Recording"}`).
public enum RecordingStatus: Sendable, Hashable {
    /// No recording was started since the server started (`NeverStarted`).
    case neverStarted
    /// A recording is in progress (`Recording`).
    case recording
    /// The last recording was stopped (`Stopped`).
    case stopped
    /// A status this client does not know, as the server wrote it.
    case other(String)

    /// Reads WireMock's status word.
    ///
    /// - Parameter text: `NeverStarted`, `Recording` or `Stopped`.
    public init(_ text: String) {
        switch text {
        case "NeverStarted": self = .neverStarted
        case "Recording": self = .recording
        case "Stopped": self = .stopped
        default: self = .other(text)
        }
    }
}
