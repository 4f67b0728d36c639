/// Whether a recording run is going, as WireMock's `GET /__admin/recordings/status` says it.
package enum RecordingStatus: String, Sendable {
    /// Recording (started through the admin API, or the daemon runs in a record mode).
    case recording = "Recording"
    /// A run went and was stopped.
    case stopped = "Stopped"
    /// No run went yet.
    case neverStarted = "NeverStarted"
}
