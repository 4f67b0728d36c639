/// A recording made, or found unchanged, and how it compares with the disk.
struct RecordedStub: Sendable {
    /// The stub now serving it.
    var stub: StubMapping
    /// Whether the mapping file is new, unchanged or changed.
    var change: RecordingWriter.Change
    /// The mapping file's path under the stub root, `mappings/….json`.
    var path: String
    /// The fingerprint on disk before this recording (`nil`: no mapping file).
    var original: UInt64?
    /// The fingerprint of this recording.
    var latest: UInt64
    /// Whether the stub of the last recording answered, the upstream having answered the same again.
    var sameAnswer = false
}
