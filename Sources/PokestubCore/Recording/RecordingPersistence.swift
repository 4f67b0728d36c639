import Foundation
import PokestubLocking

/// Makes recordings: writes their files (when persisting) and adds their stubs to the ``StubStore``, so the
/// next request matches the new stub.
///
/// When the upstream answers exactly what was last recorded at the same mapping path, and the files and the
/// stub are still the ones that recording made, that stub answers: nothing is parsed, canonicalised, hashed
/// beyond one pass over the raw body, or written. Writes are serialised, so two recordings of one path never
/// interleave.
final class RecordingPersistence: Sendable {
    /// The stubs recordings are added to; its root is where they are written.
    let store: StubStore
    private let writeLock = Locked(())
    private let state = Locked((lastRecordings: [String: LastRecording](), lifetime: RecordingLedger()))

    /// What was last recorded at a mapping path.
    private struct LastRecording: Sendable {
        var exchange: ExchangeSignature
        var id: UUID
        /// The bytes of the stub's definition when it was made; the stub serving now must still have them.
        /// (Compared as bytes: parsing the definition of a recording with a 542 KB body for each answer took
        /// 8% of a recorded answer's CPU time.)
        var definitionSource: StubDefinitionSource
        var fingerprint: UInt64
        /// The mapping file and the body file as they were right after the write: a file written or replaced
        /// since then (by a snapshot, an editor, `git checkout`) has another identity.
        var files: [(path: String, identity: FileIdentity)]
    }

    /// Creates the persistence over a store.
    init(store: StubStore) {
        self.store = store
    }

    /// New, unchanged and changed stubs since the daemon started, compared with the disk as it was before each
    /// file's first write.
    var lifetimeReport: RecordingReport { state.withLock { $0.lifetime.report } }

    /// Records one exchange.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - response: The upstream's answer.
    ///   - key: The request's recording key under `options`.
    ///   - options: Redaction, body placement and persistence.
    ///   - upstream: The upstream base URL the request went to, kept in the mapping's `metadata`.
    /// - Returns: The stub now serving it, and how it compares with the disk.
    /// - Throws: ``RecordingWriteError`` when a file cannot be written; ``StubDefinitionError`` when the
    ///   recording is not a stub the loader accepts.
    func record(
        _ request: HTTPRequest, _ response: UpstreamResponse, key: RecordingKey, options: RecordingOptions,
        upstream: String
    ) throws -> RecordedStub {
        let rootURL = store.root.map { URL(fileURLWithPath: $0) }
        let writer = rootURL.map(RecordingWriter.init(root:))
        let persist = options.persist && writer != nil
        let exchange =
            persist ? ExchangeSignature(request, response, key: key, options: options, upstream: upstream) : nil
        if let exchange, let again = unchangedRecording(at: RecordingFileName(key: key).mappingPath, exchange) {
            return again
        }
        let recording = Recorder(options: options).recording(
            of: request, response: response, key: key, upstream: upstream)
        let path = recording.fileName.mappingPath
        let mappingData = recording.mappingData
        let latest = RecordingWriter.fingerprint(of: recording, mappingData: mappingData)
        typealias Written = (
            original: UInt64?, change: RecordingWriter.Change, files: [(path: String, identity: FileIdentity)]?
        )
        // The loader must accept what is written, or every later load of the tree fails: the recording is read
        // by the loader's rules first, and one it refuses is never written.
        if persist { try RecordingPersistence.validate(recording, mappingData: mappingData, path: path) }
        let written: Written = try writeLock.withLock { _ in
            let original = writer?.fingerprintOnDisk(of: recording)
            if persist, let writer {
                let change = try writer.write(recording, mappingData: mappingData, before: original, after: latest)
                return (original, change, writer.fileIdentities(of: recording))
            }
            return (original, original == nil ? .new : (original == latest ? .unchanged : .changed), nil)
        }
        // The stub is read from the bytes written (or, kept in memory, that would be), so its `jsonBody` is
        // served as the upstream wrote it.
        let stub = try StubMapping(
            json: persist ? recording.mapping : recording.inlineMapping, defaultID: recording.id,
            source: persist ? .file(path) : .runtime,
            bodyFiles: BodyFileStore(root: persist ? rootURL?.appendingPathComponent("__files") : nil),
            definitionSource: recording.bodyFile == nil || persist ? StubDefinitionSource(data: mappingData) : nil)
        store.add(stub)
        let recorded = RecordedStub(
            stub: stub, change: written.change, path: path, original: written.original, latest: latest)
        state.withLock { state in
            state.lifetime.note(recorded)
            if let exchange, let files = written.files {
                state.lastRecordings[path] = LastRecording(
                    exchange: exchange, id: stub.id, definitionSource: stub.definitionSource, fingerprint: latest,
                    files: files)
            } else {
                state.lastRecordings[path] = nil
            }
        }
        return recorded
    }

    /// Checks a recording by the stub loader's rules before any of it is written: its mapping file parses as
    /// JSON and, with its body inline (the body file does not exist yet), is a stub the loader accepts.
    ///
    /// - Throws: ``StubDefinitionError`` naming the mapping path and the problem.
    static func validate(_ recording: Recording, mappingData: Data, path: String) throws(StubDefinitionError) {
        do {
            _ = try JSONValue.parse(mappingData)
            _ = try StubMapping(
                json: recording.inlineMapping, defaultID: recording.id, source: .file(path),
                bodyFiles: BodyFileStore(root: nil))
        } catch let error as StubDefinitionError {
            throw StubDefinitionError("recording not written, \(path) would not load: \(error.message)")
        } catch {
            throw StubDefinitionError("recording not written, \(path) would not load: \(error)")
        }
    }

    /// The recording at `path` when `exchange` is exactly what made it, its files have not been written or
    /// replaced since, and its stub still serves; noted in the lifetime ledger as unchanged.
    ///
    /// The files are checked by identity (device, inode, size, modification and change times) rather than
    /// read back: an atomic write replaces the inode, and any other write changes the times.
    private func unchangedRecording(at path: String, _ exchange: ExchangeSignature) -> RecordedStub? {
        guard let last = state.withLock({ $0.lastRecordings[path] }), last.exchange == exchange,
            last.files.allSatisfy({ FileIdentity(path: $0.path) == $0.identity }),
            let stub = store.index.stub(id: last.id), stub.definitionSource == last.definitionSource
        else { return nil }
        // The files are what this recording wrote or found, so what is on disk is its fingerprint.
        let recorded = RecordedStub(
            stub: stub, change: .unchanged, path: path, original: last.fingerprint, latest: last.fingerprint,
            sameAnswer: true)
        state.withLock { $0.lifetime.note(recorded) }
        return recorded
    }
}
