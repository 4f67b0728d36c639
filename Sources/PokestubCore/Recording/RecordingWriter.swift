import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes recordings under a stub root, atomically, and tells new, unchanged and changed apart.
///
/// Each file is written to a temporary file in the same folder (named with a leading dot, which the stub
/// loader skips), flushed with `fsync`, then renamed over the target: rename within one file system is
/// atomic (POSIX `rename(2)`), so a kill at any moment leaves either the old file or the new one, never a
/// partial one. The body file is written before the mapping, so a mapping never names a missing body. An
/// unchanged recording is not rewritten.
public struct RecordingWriter: Sendable {
    /// The stub root (the folder holding `mappings/` and `__files/`).
    public let root: URL

    /// Creates a writer.
    ///
    /// - Parameter root: The stub root.
    public init(root: URL) {
        self.root = root
    }

    /// How a recording compares with what was on disk.
    public enum Change: String, Sendable, Hashable {
        /// No mapping file was there.
        case new
        /// The same bytes were there.
        case unchanged
        /// Different bytes were there.
        case changed
    }

    /// A hash of what is on disk where the recording goes, or `nil` when its mapping file is absent.
    ///
    /// - Parameter recording: The recording.
    /// - Returns: A hash of the mapping file's and the body file's bytes, comparable with
    ///   ``fingerprint(of:)`` within one process.
    public func fingerprintOnDisk(of recording: Recording) -> UInt64? {
        guard let mapping = try? Data(contentsOf: url(recording.fileName.mappingPath)) else { return nil }
        guard let bodyFile = recording.bodyFile else { return ContentDigest([mapping]).value }
        return ContentDigest([mapping, (try? Data(contentsOf: url("__files/" + bodyFile.name))) ?? Data()]).value
    }

    /// A hash of the recording's bytes, comparable with ``fingerprintOnDisk(of:)``.
    ///
    /// - Parameter recording: The recording.
    /// - Returns: A hash of the mapping's and the body file's bytes.
    public static func fingerprint(of recording: Recording) -> UInt64 {
        fingerprint(of: recording, mappingData: recording.mappingData)
    }

    /// ``fingerprint(of:)`` with the mapping's bytes already made.
    static func fingerprint(of recording: Recording, mappingData: Data) -> UInt64 {
        guard let bodyFile = recording.bodyFile else { return ContentDigest([mappingData]).value }
        return ContentDigest([mappingData, bodyFile.data]).value
    }

    /// The recording's mapping file and body file, with which files they are now; `nil` when one is missing.
    func fileIdentities(of recording: Recording) -> [(path: String, identity: FileIdentity)]? {
        var paths = [url(recording.fileName.mappingPath).path]
        if let bodyFile = recording.bodyFile { paths.append(url("__files/" + bodyFile.name).path) }
        var identities: [(path: String, identity: FileIdentity)] = []
        for path in paths {
            guard let identity = FileIdentity(path: path) else { return nil }
            identities.append((path, identity))
        }
        return identities
    }

    /// Writes a recording's body file and mapping, unless the same bytes are already there.
    ///
    /// - Parameter recording: The recording.
    /// - Returns: How it compares with what was on disk before.
    /// - Throws: ``RecordingWriteError`` naming the file when a folder or file cannot be written.
    @discardableResult
    public func write(_ recording: Recording) throws(RecordingWriteError) -> Change {
        let mappingData = recording.mappingData
        return try write(
            recording, mappingData: mappingData, before: fingerprintOnDisk(of: recording),
            after: RecordingWriter.fingerprint(of: recording, mappingData: mappingData))
    }

    /// ``write(_:)`` with the mapping's bytes and both fingerprints already worked out.
    ///
    /// - Parameters:
    ///   - recording: The recording.
    ///   - mappingData: The mapping file's bytes (``Recording/mappingData``).
    ///   - before: ``fingerprintOnDisk(of:)``.
    ///   - after: ``fingerprint(of:)``.
    func write(
        _ recording: Recording, mappingData: Data, before: UInt64?, after: UInt64
    ) throws(RecordingWriteError) -> Change {
        if before == after { return .unchanged }
        if let bodyFile = recording.bodyFile {
            try RecordingWriter.writeAtomically(bodyFile.data, to: url("__files/" + bodyFile.name))
        }
        try RecordingWriter.writeAtomically(mappingData, to: url(recording.fileName.mappingPath))
        return before == nil ? .new : .changed
    }

    private func url(_ relative: String) -> URL {
        root.appendingPathComponent(relative)
    }

    /// Writes bytes to a file through a temporary file in the same folder and a rename.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - url: The file; missing folders are created.
    /// - Throws: ``RecordingWriteError`` with the path and the system's reason.
    public static func writeAtomically(_ data: Data, to url: URL) throws(RecordingWriteError) {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw RecordingWriteError(path: folder.path, message: "cannot create folder: \(error.localizedDescription)")
        }
        let temporary = folder.appendingPathComponent(TemporaryFileName.make(for: url.lastPathComponent))
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RecordingWriteError(path: temporary.path, message: String(cString: strerror(errno)))
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw RecordingWriteError(path: url.path, message: failure)
        }
    }
}

/// `write(2)`, named so it does not collide with ``RecordingWriter/write(_:)``: at file scope the unqualified
/// name is the C library's on every platform.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
