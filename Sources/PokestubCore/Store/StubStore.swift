import Foundation
import PokestubLocking

/// The stubs being served: those read from the stub root plus those added through the admin API, swapped
/// in whole on every change.
///
/// Thread-safe. Reading the current set is one lock acquisition and a reference copy; every change builds a
/// new ``StubIndex`` and swaps it in, so requests never see a half-applied change. Changes are serialised by
/// a lock of their own, and the index is built under that one: the lock requests take (``index``) is held
/// only for the swap, so a reload or a recording never makes a request wait for an index build.
package final class StubStore: Sendable {
    /// The stub root this store reloads from, or `nil` for runtime stubs only.
    package let root: String?
    /// The states of the scenarios these stubs take part in.
    package let scenarios = ScenarioStates()
    private let state: Locked<State>

    private struct State {
        var fileStubs: [StubMapping] = []
        var runtimeStubs: [StubMapping] = []
        /// File stubs removed or replaced through the admin API; stays until ``StubStore/resetToFiles()``.
        var hiddenFileIDs: Set<UUID> = []
        var lastReload: ReloadReport?

        /// The index of the stubs now in force, built from the lists.
        func buildIndex() -> StubIndex {
            StubIndex(fileStubs.filter { !hiddenFileIDs.contains($0.id) } + runtimeStubs)
        }
    }

    /// The outcome of reading the stub root.
    package struct ReloadReport: Sendable {
        /// When the reload ran.
        package var at: Date
        /// Whether the new set replaced the old one: always, unless the stub root is no folder or, with
        /// ``StubStore/strict``, any file has a problem.
        package var succeeded: Bool
        /// The number of stubs read from files (0 when the reload failed).
        package var stubCount: Int
        /// The problems found: files that did not load, or why the reload failed.
        package var problems: [StubLoadProblem]
        /// The problems of stubs loaded to answer 500 naming them (``StubLoader``); empty with
        /// ``StubStore/strict``, where each is one of ``problems``.
        package var warnings: [StubLoadProblem]
    }

    /// Creates a store. Call ``reload()`` to read the stub root.
    ///
    /// - Parameters:
    ///   - root: The stub root, or `nil` for runtime stubs only.
    ///   - preloadBodyFiles: Read every body file at load instead of at first use (see ``StubLoader``).
    ///   - globalResponseTemplating: Every stub's response is a template, from files and the admin API alike
    ///     (`globalResponseTemplating`, WireMock's `--global-response-templating`).
    ///   - strict: All or nothing (config `strict`): a reload with any problem, a stub WireMock would load and
    ///     fail on only when hit included, replaces nothing. Otherwise a reload serves every file that loads.
    package init(
        root: String?, preloadBodyFiles: Bool = false, globalResponseTemplating: Bool = false, strict: Bool = false
    ) {
        self.root = root
        self.preloadBodyFiles = preloadBodyFiles
        self.globalResponseTemplating = globalResponseTemplating
        self.strict = strict
        writer = root.map {
            RecordingWriter(root: URL(fileURLWithPath: $0), globalResponseTemplating: globalResponseTemplating)
        }
        state = Locked(State())
    }

    /// What writes stubs under ``root`` (recordings, `POST /__admin/mappings/save`, persistent stubs), by the
    /// rules this store loads with; `nil` without a root.
    package let writer: RecordingWriter?

    /// The index requests read; replaced whole, under ``state``'s lock, after each change.
    private let published = Locked(StubIndex.empty)
    /// Where the index is published too (``publish(to:)``): the daemon's ``ServerInfo`` (each engine's over
    /// this store), which a request of its scope reads with everything else it reads, in one lock.
    private let mirrors = Locked<[ServerInfo]>([])

    /// From now on publishes every new index to `info` too (``ServerInfo/Serving/stubs``), starting with the
    /// current one: the daemon's requests then read their stubs with the rest of what they read, in one lock.
    func publish(to info: ServerInfo) {
        state.withLock { _ in
            mirrors.withLock { $0.append(info) }
            let index = published.withLock { $0 }
            info.update { $0.stubs = index }
        }
    }

    /// Makes `index` the one requests read, here and in the mirror; called under ``state``'s lock.
    private func publish(_ index: StubIndex) {
        published.withLock { $0 = index }
        for info in mirrors.withLock({ $0 }) { info.update { $0.stubs = index } }
    }

    /// Applies a change to the lists and publishes the new index: built while only changes wait, swapped in
    /// under the lock requests take.
    private func change<T>(_ body: (inout State) -> (result: T, rebuild: Bool)) -> T {
        state.withLock { state in
            let (result, rebuild) = body(&state)
            if rebuild { publish(state.buildIndex()) }
            return result
        }
    }

    /// Adds a stub whose id no stub has: the published index grows by it (``StubIndex/adding(_:)``) instead of
    /// being built again, which is what keeps a recording's answer from paying for every stub served.
    private func append(_ stub: StubMapping) -> Bool {
        state.withLock { state in
            guard !state.runtimeStubs.contains(where: { $0.id == stub.id }),
                !state.fileStubs.contains(where: { $0.id == stub.id })
            else { return false }
            state.runtimeStubs.append(stub)
            publish(published.withLock { $0 }.adding(stub))
            return true
        }
    }

    /// Whether body files are read at load rather than at first use.
    package let preloadBodyFiles: Bool
    /// Whether every stub's response is a template.
    package let globalResponseTemplating: Bool
    /// Whether a reload with any problem replaces nothing (config `strict`).
    package let strict: Bool

    /// The current set of stubs.
    package var index: StubIndex {
        published.withLock { $0 }
    }

    /// The last reload's outcome, or `nil` before the first.
    package var lastReload: ReloadReport? {
        state.withLock { $0.lastReload }
    }

    /// Reads the stub root again. The files that load replace the stubs read from files before, each file
    /// with a problem left out and named in the report (``StubLoader``); with ``strict``, when any file has a
    /// problem, the stubs being served stay as they were (all files or none: never a mix of old and new).
    /// When the stub root is no folder, they stay in either case.
    ///
    /// - Returns: What happened; the problems name each file and line.
    @discardableResult
    package func reload() -> ReloadReport {
        reload(adopting: [])
    }

    /// Reads the stub root again, as ``reload()``, and lets the files' copies of the stubs with these ids replace
    /// their runtime copies even where those replaced a file stub: what `POST /__admin/mappings/save` does once
    /// it has written them. When the reload fails nothing changes, and the runtime stubs keep serving.
    ///
    /// - Parameter ids: The ids of runtime stubs just written under `mappings/`.
    /// - Returns: What happened.
    @discardableResult
    package func reload(adopting ids: Set<UUID>) -> ReloadReport {
        guard let root else {
            let report = ReloadReport(at: Date(), succeeded: true, stubCount: 0, problems: [], warnings: [])
            state.withLock { $0.lastReload = report }
            return report
        }
        let result = StubLoader(
            root: root, preloadBodyFiles: preloadBodyFiles, globalResponseTemplating: globalResponseTemplating,
            strict: strict
        ).load()
        let replaces = result.foundRoot && (!strict || result.problems.isEmpty)
        let report = ReloadReport(
            at: Date(), succeeded: replaces, stubCount: replaces ? result.stubs.count : 0, problems: result.problems,
            warnings: result.warnings)
        change { state in
            state.lastReload = report
            guard report.succeeded else { return ((), false) }
            state.fileStubs = result.stubs
            // A stub recorded at run time is also a file now: the file's copy replaces it, so one id
            // never answers twice. A runtime stub that deliberately replaces a file stub (PUT) stays.
            let fileIDs = Set(result.stubs.map(\.id))
            let adopted = ids.intersection(fileIDs)
            state.hiddenFileIDs.subtract(adopted)
            state.runtimeStubs.removeAll { fileIDs.contains($0.id) && !state.hiddenFileIDs.contains($0.id) }
            return ((), true)
        }
        return report
    }

    /// Drops every runtime stub and admin change, then reads the stub root again (`POST /__admin/mappings/reset`).
    @discardableResult
    package func resetToFiles() -> ReloadReport {
        change { state in
            state.runtimeStubs = []
            state.hiddenFileIDs = []
            return ((), true)
        }
        return reload()
    }

    /// The stubs added through the admin API, oldest first, each with the stub-root-relative path of the file
    /// stub it replaces (same id, `PUT /__admin/mappings/{id}`), if any, and whether that file holds several
    /// mappings.
    package var runtimeStubs: [(stub: StubMapping, replacedFile: (path: String, isList: Bool)?)] {
        state.withLock { state in
            state.runtimeStubs.map { stub in
                guard let file = state.fileStubs.first(where: { $0.id == stub.id }), case .file(let path) = file.source
                else { return (stub, nil) }
                return (stub, (path, file.definitionSource.item != nil))
            }
        }
    }

    /// Adds a stub, or replaces the stub with the same id.
    package func add(_ stub: StubMapping) {
        if append(stub) { return }
        change { state in
            state.runtimeStubs.removeAll { $0.id == stub.id }
            if state.fileStubs.contains(where: { $0.id == stub.id }) { state.hiddenFileIDs.insert(stub.id) }
            state.runtimeStubs.append(stub)
            return ((), true)
        }
    }

    /// Adds a stub just written to a mapping file of its own (a persistent stub), replacing any stub with
    /// its id: it serves at once, and the next reload's copy from the file replaces it, leaving one stub.
    ///
    /// Unlike ``add(_:)``, it does not hide a file stub with the same id but drops it, since the file now holds
    /// this stub: a reload then keeps the file's copy only.
    ///
    /// - Parameter stub: The stub, with its file as its ``StubMapping/source``.
    package func persisted(_ stub: StubMapping) {
        change { state in
            state.runtimeStubs.removeAll { $0.id == stub.id }
            state.fileStubs.removeAll { $0.id == stub.id }
            state.hiddenFileIDs.remove(stub.id)
            state.runtimeStubs.append(stub)
            return ((), true)
        }
    }

    /// Removes the stub with this id.
    ///
    /// - Returns: Whether there was one.
    @discardableResult
    package func remove(id: UUID) -> Bool {
        change { state in
            let runtimeCount = state.runtimeStubs.count
            state.runtimeStubs.removeAll { $0.id == id }
            var removed = state.runtimeStubs.count != runtimeCount
            if state.fileStubs.contains(where: { $0.id == id }), !state.hiddenFileIDs.contains(id) {
                state.hiddenFileIDs.insert(id)
                removed = true
            }
            return (removed, removed)
        }
    }

    /// Removes every stub, from files too, until ``resetToFiles()`` (`DELETE /__admin/mappings`).
    package func removeAll() {
        change { state in
            state.runtimeStubs = []
            state.hiddenFileIDs = Set(state.fileStubs.map(\.id))
            return ((), true)
        }
    }
}
