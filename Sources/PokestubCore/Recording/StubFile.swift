import Foundation

/// One mapping file as it is to be written under a stub root: its final bytes, and the body file its
/// `bodyFileName` names, if any. Every writer of stubs makes one (recordings and snapshots through
/// ``Recording/stubFile``, `pokestub import`, `POST /__admin/mappings/save`, persistent admin stubs) and hands
/// it to ``RecordingWriter/check(_:)`` and ``RecordingWriter/commit(_:durability:)``.
package struct StubFile: Sendable {
    /// The mapping file's path relative to the stub root, `mappings/….json`; a mapping without an id gets the
    /// one derived from it, as at load.
    package var path: String
    /// The mapping file's bytes, exactly as they are written.
    package var data: Data
    /// The body file, written under `__files/` before the mapping, when the mapping names one.
    package var bodyFile: Recording.BodyFileToWrite?

    /// Creates a stub file.
    ///
    /// - Parameters:
    ///   - path: The mapping file's path relative to the stub root, `mappings/….json`.
    ///   - data: The mapping file's bytes: one mapping object.
    ///   - bodyFile: The body file the mapping names in `bodyFileName`, if it is written with it.
    package init(path: String, data: Data, bodyFile: Recording.BodyFileToWrite? = nil) {
        self.path = path
        self.data = data
        self.bodyFile = bodyFile
    }

    /// A hash of the mapping's and the body file's bytes, comparable with
    /// ``RecordingWriter/fingerprintOnDisk(of:)`` within one process.
    package var fingerprint: UInt64 {
        guard let bodyFile else { return ContentDigest([data]).value }
        return ContentDigest([data, bodyFile.data]).value
    }

    /// A stub file read by the loader's rules (``RecordingWriter/check(_:)``), with the stub it holds: the only
    /// thing ``RecordingWriter/commit(_:durability:)`` writes.
    package struct Checked: Sendable {
        /// The file.
        package let file: StubFile
        /// The stub the file loads as once written: from the file at ``StubFile/path``, its definition the
        /// file's bytes.
        package let stub: StubMapping

        init(file: StubFile, stub: StubMapping) {
            self.file = file
            self.stub = stub
        }
    }
}
