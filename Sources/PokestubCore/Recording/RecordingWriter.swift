import Foundation
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way pokestub writes stubs under a stub root: recordings and snapshots, `pokestub import`,
/// `POST /__admin/mappings/save` and persistent admin stubs each make a ``StubFile`` (the mapping's final bytes
/// and its body file), have it read by the loader's rules (``check(_:)``) and write it (``commit(_:durability:)``),
/// so nothing pokestub writes is refused by `pokestub check` or by the next load.
///
/// ``check(_:)`` parses the mapping once, as ``StubLoader`` will read the file (comments, strict fields,
/// templates under `globalResponseTemplating`, a body file that must lie inside `__files/`), and its stub is the
/// one the caller serves: nothing is parsed again after writing. ``commit(_:durability:)`` writes only files so
/// checked, each to a temporary file in the same folder (named with a leading dot, which the loader skips) then
/// renamed over the target: `rename(2)` within one file system is atomic, so a reader or a crash sees the old
/// file or the new one, never a partial one. The body file is written before the mapping, so a mapping never
/// names a missing body. A file whose bytes are already there is not rewritten. Commits through one writer (and
/// its copies) are serialised; checks are not.
///
/// Durability (``Durability``) is the caller's choice, so an answer waits for no disk flush it does not need:
/// recordings keep what a kill of the process (`kill -9`) cannot undo; `pokestub import` and the admin API's
/// writes also what a power loss cannot.
package struct RecordingWriter: Sendable {
    /// The stub root (the folder holding `mappings/` and `__files/`).
    package let root: URL
    /// Whether the loader reads every stub's response as a template (`globalResponseTemplating`), so
    /// ``check(_:)`` does too.
    package let globalResponseTemplating: Bool
    /// Held while a commit compares and writes.
    private let commits = Locked(())

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - root: The stub root.
    ///   - globalResponseTemplating: Whether the loader of this root reads every response as a template.
    package init(root: URL, globalResponseTemplating: Bool = false) {
        self.root = root
        self.globalResponseTemplating = globalResponseTemplating
    }

    /// How a stub file compares with what was on disk.
    package enum Change: String, Sendable, Hashable {
        /// No mapping file was there.
        case new
        /// The same bytes were there.
        case unchanged
        /// Different bytes were there.
        case changed

        /// How a stub file compares with the disk.
        ///
        /// - Parameters:
        ///   - original: ``RecordingWriter/fingerprintOnDisk(of:)`` (`nil`: no mapping file).
        ///   - latest: The file's ``StubFile/fingerprint``.
        init(original: UInt64?, latest: UInt64) {
            self = original == nil ? .new : (original == latest ? .unchanged : .changed)
        }
    }

    /// What a commit's files survive once it returns.
    package enum Durability: Sendable, Hashable {
        /// A crash of the process, `kill -9` included: each file is the old one or the new one, whole (the
        /// kernel holds what was written, and the rename is atomic). No disk flush is waited for, so a power
        /// loss or a crash of the system may leave a file written in the seconds before it absent, old, or, on
        /// file systems that allocate late (ext4, XFS), empty. What recordings and snapshots use.
        case processCrash
        /// A power loss as well: each temporary file is flushed (`fsync`) before its rename, and its folder
        /// after (with the folders above it that the write made), so once the commit returns the new files are on
        /// disk, and before that each is old or new, whole. What `pokestub import`, `POST
        /// /__admin/mappings/save` and persistent admin stubs use.
        case powerLoss
    }

    /// A stub file written, or found already there.
    package struct Committed: Sendable {
        /// The stub the file holds (``StubFile/Checked/stub``).
        package var stub: StubMapping
        /// How the file compares with what was on disk before.
        package var change: Change
        /// ``fingerprintOnDisk(of:)`` before the commit (`nil`: no mapping file).
        package var original: UInt64?
        /// ``StubFile/fingerprint`` of the file committed.
        package var latest: UInt64
        /// The mapping file and the body file right after the commit, with which files they were; `nil` when
        /// one was missing.
        var identities: [(path: String, identity: FileIdentity)]?
    }

    /// Reads a stub file by the stub loader's rules, as the loader will read it once written: its mapping
    /// parsed once, its body file (not written yet) taken as the file it will be if it lies inside `__files/`.
    ///
    /// - Parameter file: The stub file.
    /// - Returns: The file with its stub, ready for ``commit(_:durability:)``.
    /// - Throws: ``StubDefinitionError`` `<path> would not load: line <n>: <problem>`.
    package func check(_ file: StubFile) throws(StubDefinitionError) -> StubFile.Checked {
        let bodyFiles = BodyFileStore(root: url("__files"), toBeWritten: file.bodyFile.map { [$0.name] } ?? [])
        let stub = try StubLoader.stub(
            in: file.data, path: file.path, bodyFiles: bodyFiles, globalResponseTemplating: globalResponseTemplating)
        return StubFile.Checked(file: file, stub: stub)
    }

    /// Checks stub files and writes them: every one is read by the loader's rules (``check(_:)``) before any
    /// is written.
    ///
    /// - Parameters:
    ///   - files: The stub files, written in this order.
    ///   - durability: What the files survive once this returns.
    /// - Returns: Each file's stub and how it compared with the disk, in order.
    /// - Throws: ``StubDefinitionError`` naming the first file that would not load (nothing written);
    ///   ``RecordingWriteError`` naming the file that could not be written (those before it are written).
    package func commit(checking files: [StubFile], durability: Durability) throws -> [Committed] {
        var checked: [StubFile.Checked] = []
        for file in files { checked.append(try check(file)) }
        var committed: [Committed] = []
        for file in checked { committed.append(try commit(file, durability: durability)) }
        return committed
    }

    /// Writes a checked stub file's body file and mapping, unless the same bytes are already there.
    ///
    /// - Parameters:
    ///   - checked: From ``check(_:)``.
    ///   - durability: What the files survive once this returns.
    /// - Returns: The file's stub and how it compared with the disk.
    /// - Throws: ``RecordingWriteError`` naming the folder or file that could not be written.
    package func commit(_ checked: StubFile.Checked, durability: Durability) throws(RecordingWriteError) -> Committed {
        let file = checked.file
        let latest = file.fingerprint
        return try commits.withLock { _ throws(RecordingWriteError) in
            let original = fingerprintOnDisk(of: file)
            let change = Change(original: original, latest: latest)
            if change != .unchanged {
                if let bodyFile = file.bodyFile {
                    try RecordingWriter.writeAtomically(
                        bodyFile.data, to: url("__files/" + bodyFile.name), durability: durability)
                }
                try RecordingWriter.writeAtomically(file.data, to: url(file.path), durability: durability)
            }
            return Committed(
                stub: checked.stub, change: change, original: original, latest: latest,
                identities: fileIdentities(of: file))
        }
    }

    /// A hash of what is on disk where a stub file goes, or `nil` when its mapping file is absent.
    ///
    /// - Parameter file: The stub file.
    /// - Returns: A hash of the mapping file's and the body file's bytes, comparable with
    ///   ``StubFile/fingerprint`` within one process.
    package func fingerprintOnDisk(of file: StubFile) -> UInt64? {
        guard let mapping = try? Data(contentsOf: url(file.path)) else { return nil }
        guard let bodyFile = file.bodyFile else { return ContentDigest([mapping]).value }
        return ContentDigest([mapping, (try? Data(contentsOf: url("__files/" + bodyFile.name))) ?? Data()]).value
    }

    /// A stub file's mapping file and body file, with which files they are now; `nil` when one is missing.
    private func fileIdentities(of file: StubFile) -> [(path: String, identity: FileIdentity)]? {
        var paths = [url(file.path).path]
        if let bodyFile = file.bodyFile { paths.append(url("__files/" + bodyFile.name).path) }
        var identities: [(path: String, identity: FileIdentity)] = []
        for path in paths {
            guard let identity = FileIdentity(path: path) else { return nil }
            identities.append((path, identity))
        }
        return identities
    }

    private func url(_ relative: String) -> URL {
        root.appendingPathComponent(relative)
    }

    /// Writes bytes to a file through a temporary file in the same folder and a rename.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - url: The file; missing folders are created.
    ///   - durability: What the file survives once this returns (``Durability``).
    /// - Throws: ``RecordingWriteError`` with the path and the system's reason.
    static func writeAtomically(
        _ data: Data, to url: URL, durability: Durability = .powerLoss
    ) throws(RecordingWriteError) {
        let folder = url.deletingLastPathComponent()
        // The folders this write makes, deepest first, and the one they are made in.
        var made: [String] = []
        var existing = folder.path
        while !FileManager.default.fileExists(atPath: existing), existing != "/" {
            made.append(existing)
            existing = (existing as NSString).deletingLastPathComponent
        }
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
        let flushed = durability == .powerLoss
        if failure == nil, flushed, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw RecordingWriteError(path: url.path, message: failure)
        }
        // The rename is an entry of the file's folder, and a folder made is an entry of the one above it: flushing
        // those folders keeps them (fsync(2)).
        guard flushed else { return }
        for path in [folder.path] + made.dropFirst() + (made.isEmpty ? [] : [existing]) {
            if let failure = flush(folder: path) { throw RecordingWriteError(path: path, message: failure) }
        }
    }

    /// Flushes a folder's entries to disk; the system's reason when it cannot.
    private static func flush(folder: String) -> String? {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        return fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))
    }
}

/// `write(2)`, named apart from the writer's methods: at file scope the unqualified name is the C library's on
/// every platform.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
