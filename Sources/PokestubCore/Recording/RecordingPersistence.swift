import Foundation
import PokestubLocking

/// Makes recordings: writes their files (when persisting) and adds their stubs to the ``StubStore``, so the
/// next request matches the new stub.
///
/// When the upstream answers exactly what was last recorded at the same mapping path, and the files and the
/// stub are still the ones that recording made, that stub answers: nothing is parsed, canonicalised, hashed
/// beyond one pass over the raw body, or written. Recordings are written through the store's
/// ``StubStore/writer``, which serialises writes, so two recordings of one path never interleave.
final class RecordingPersistence: Sendable {
    /// The stubs recordings are added to; its root is where they are written.
    let store: StubStore
    private let state = Locked((lastRecordings: [String: LastRecording](), lifetime: RecordingLedger()))

    /// What was last recorded at a mapping path.
    private struct LastRecording: Sendable {
        var exchange: ExchangeSignature
        var id: UUID
        /// The bytes of the stub's definition when it was made; the stub serving now must still have them.
        /// Compared as bytes: parsing the definition of a recording with a large body for each answer would cost
        /// more than the answer.
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
    ///   recording is not a stub the loader accepts (nothing is written).
    func record(
        _ request: HTTPRequest, _ response: UpstreamResponse, key: RecordingKey, options: RecordingOptions,
        upstream: String
    ) throws -> RecordedStub {
        let writer = options.persist ? store.writer : nil
        let exchange = writer.map { _ in
            ExchangeSignature(request, response, key: key, options: options, upstream: upstream)
        }
        if let exchange, let again = unchangedRecording(at: RecordingFileName(key: key).mappingPath, exchange) {
            return again
        }
        let recording = Recorder(options: options).recording(
            of: request, response: response, key: key, upstream: upstream)
        let file = recording.stubFile
        let recorded: RecordedStub
        var identities: [(path: String, identity: FileIdentity)]?
        if let writer {
            // Read by the loader's rules first, so one it refuses is never written (every later load of the tree
            // would fail); checked outside the writer's lock, written under it. A recording's answer waits for
            // no disk flush: a kill cannot leave a partial file (``RecordingWriter/Durability/processCrash``).
            let checked: StubFile.Checked
            do { checked = try writer.check(file) } catch {
                throw StubDefinitionError("recording not written, \(error.message)")
            }
            let committed = try writer.commit(checked, durability: .processCrash)
            recorded = RecordedStub(
                stub: committed.stub, change: committed.change, path: file.path, original: committed.original,
                latest: committed.latest)
            identities = committed.identities
        } else {
            // Kept in memory: the body inside the mapping, read by the same rules.
            var stub = try StubLoader.stub(
                in: recording.inlineMappingData, path: file.path, bodyFiles: BodyFileStore(root: nil),
                globalResponseTemplating: store.globalResponseTemplating)
            stub.source = .runtime
            let original = store.writer?.fingerprintOnDisk(of: file)
            let latest = file.fingerprint
            recorded = RecordedStub(
                stub: stub, change: RecordingWriter.Change(original: original, latest: latest), path: file.path,
                original: original, latest: latest)
        }
        store.add(recorded.stub)
        state.withLock { state in
            state.lifetime.note(recorded)
            if let exchange, let identities {
                state.lastRecordings[file.path] = LastRecording(
                    exchange: exchange, id: recorded.stub.id, definitionSource: recorded.stub.definitionSource,
                    fingerprint: recorded.latest, files: identities)
            } else {
                state.lastRecordings[file.path] = nil
            }
        }
        return recorded
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
