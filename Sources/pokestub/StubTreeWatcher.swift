import Dispatch
import Foundation
import PokestubLocking

/// Watches a stub root (`mappings/` and `__files/`, every folder below them) and calls back once things have
/// been quiet for a moment, so an editor's save, a `git checkout` or a generator rewriting hundreds of files
/// causes one reload, not hundreds. New folders are watched as they appear.
///
/// The events come from the platform's ``StubTreeEventSource``, ``PlatformStubTreeEvents``: inotify on Linux
/// (`StubTreeWatcher+Glibc.swift`), kqueue vnode events through Dispatch on Darwin
/// (`StubTreeWatcher+Darwin.swift`). The debounce and the reload call are the same on both: the source says
/// "something changed", this type waits for the quiet time and calls `onChange` once.
///
/// Reloading is all-or-nothing (``PokestubCore/StubStore/reload()``): a file caught half-written fails to
/// parse, the previous stubs keep serving, and the write's own event brings the next reload.
final class StubTreeWatcher: Sendable {
    private let queue = DispatchQueue(label: "pokestub.watcher")
    private let debounce: DispatchTimeInterval
    private let onChange: @Sendable () -> Void
    private let generation = Locked(0)
    private let events = Locked<(any StubTreeEventSource)?>(nil)

    /// Starts watching; `nil` when the platform cannot watch (then SIGHUP still reloads).
    ///
    /// - Parameters:
    ///   - root: The stub root.
    ///   - debounceMilliseconds: Quiet time before `onChange` runs, in milliseconds.
    ///   - onChange: Called on a private queue after changes.
    init?(root: String, debounceMilliseconds: Int = 200, onChange: @escaping @Sendable () -> Void) {
        self.debounce = .milliseconds(debounceMilliseconds)
        self.onChange = onChange
        let generation = self.generation
        let queue = self.queue
        let debounce = self.debounce
        guard
            let source = PlatformStubTreeEvents(
                root: root, queue: queue,
                changed: {
                    StubTreeWatcher.restartQuietTime(
                        generation: generation, queue: queue, debounce: debounce, onChange: onChange)
                })
        else { return nil }
        events.withLock { $0 = source }
    }

    /// The folders a stub root is watched in: the root, then `mappings/` and `__files/` with every folder
    /// below them. Hidden folders (`.git`, an editor's) are left out; so are folders that do not exist.
    ///
    /// - Parameter root: The stub root.
    /// - Returns: Absolute paths, parents before their children.
    static func folders(under root: String) -> [String] {
        var folders = [root]
        for folder in ["mappings", "__files"] {
            folders += tree(at: (root as NSString).appendingPathComponent(folder))
        }
        return folders
    }

    /// `path` and every non-hidden folder below it, when `path` is a folder; otherwise nothing.
    ///
    /// - Parameter path: A folder's path.
    /// - Returns: Absolute paths, parents before their children.
    static func tree(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return []
        }
        var folders = [path]
        for child in visibleEntries(of: path) { folders += tree(at: child) }
        return folders
    }

    /// The entries of a folder whose names do not start with a dot, sorted by name.
    ///
    /// Shared, so the Darwin platform file needs no Foundation: `scripts/check-darwin.sh` type-checks
    /// `StubTreeWatcher+Darwin.swift` against Darwin's C declarations, where Foundation cannot be loaded.
    ///
    /// - Parameter folder: A folder's path.
    /// - Returns: Absolute paths (`folder` joined with each name); none when the folder cannot be read.
    static func visibleEntries(of folder: String) -> [String] {
        let children = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return children.sorted().filter { !$0.hasPrefix(".") }.map { (folder as NSString).appendingPathComponent($0) }
    }

    /// Something changed: (re)starts the quiet-time timer; `onChange` runs once it expires with no change since.
    private static func restartQuietTime(
        generation: Locked<Int>, queue: DispatchQueue, debounce: DispatchTimeInterval,
        onChange: @escaping @Sendable () -> Void
    ) {
        let current = generation.withLock { generation in
            generation += 1
            return generation
        }
        queue.asyncAfter(deadline: .now() + debounce) {
            if generation.withLock({ $0 == current }) { onChange() }
        }
    }

    deinit {
        events.withLock { $0?.cancel() }
    }
}
