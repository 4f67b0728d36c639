import Dispatch
import Foundation
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#endif

/// Watches a stub root (`mappings/` and `__files/`, every folder below them) with inotify and calls back once
/// things have been quiet for a moment, so an editor's save, a `git checkout` or a generator rewriting
/// hundreds of files causes one reload, not hundreds. New folders are watched as they appear.
///
/// Reloading is all-or-nothing (``PokestubCore/StubStore/reload()``): a file caught half-written fails to
/// parse, the previous stubs keep serving, and the write's own event brings the next reload.
final class StubTreeWatcher: Sendable {
    private let root: String
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "pokestub.watcher")
    private let state = WatcherState()
    private let debounce: DispatchTimeInterval
    private let onChange: @Sendable () -> Void

    /// Starts watching; `nil` when inotify is not available (then SIGHUP still reloads).
    ///
    /// - Parameters:
    ///   - root: The stub root.
    ///   - debounceMilliseconds: Quiet time before `onChange` runs, in milliseconds.
    ///   - onChange: Called on a private queue after changes.
    init?(root: String, debounceMilliseconds: Int = 200, onChange: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.root = root
        self.descriptor = descriptor
        self.debounce = .milliseconds(debounceMilliseconds)
        self.onChange = onChange
        for folder in ["mappings", "__files"] {
            watchTree(URL(fileURLWithPath: root).appendingPathComponent(folder).path)
        }
        watch(root)
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [self] in drain() }
        source.resume()
        state.keep(source)
    }

    private static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF
            | IN_MOVE_SELF | IN_ATTRIB)

    private func watch(_ path: String) {
        let watch = inotify_add_watch(descriptor, path, StubTreeWatcher.mask)
        if watch >= 0 { state.record(watch: watch, path: path) }
    }

    private func watchTree(_ path: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return
        }
        watch(path)
        let children = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for child in children where !child.hasPrefix(".") {
            watchTree((path as NSString).appendingPathComponent(child))
        }
    }

    /// Reads every pending event, watches new folders, and (re)starts the quiet-time timer.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
        var changed = false
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (watch, mask, nameLength, name) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int, String) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = raw[start..<min(start + Int(event.len), raw.count)].prefix { $0 != 0 }
                    return (event.wd, event.mask, Int(event.len), String(decoding: nameBytes, as: UTF8.self))
                }
                offset += MemoryLayout<inotify_event>.size + nameLength
                // Hidden files are never stubs: a recording's temporary file (renamed into place, which is
                // seen under the new name) or an editor's swap file.
                guard !name.hasPrefix(".") || mask & UInt32(IN_ISDIR) != 0 else { continue }
                changed = true
                if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                    let parent = state.path(of: watch)
                {
                    watchTree((parent as NSString).appendingPathComponent(name))
                }
            }
        }
        guard changed else { return }
        let generation = state.nextGeneration()
        queue.asyncAfter(deadline: .now() + debounce) { [self] in
            if state.isCurrent(generation) { onChange() }
        }
    }
}

/// The watcher's bookkeeping: watch descriptors to folders, the debounce generation, the read source.
private final class WatcherState: Sendable {
    private let folders = Locked<[Int32: String]>([:])
    private let generation = Locked(0)
    private let sources = Locked<[RetainedSource]>([])

    func record(watch: Int32, path: String) { folders.withLock { $0[watch] = path } }
    func path(of watch: Int32) -> String? { folders.withLock { $0[watch] } }
    func nextGeneration() -> Int {
        generation.withLock { generation in
            generation += 1
            return generation
        }
    }
    func isCurrent(_ value: Int) -> Bool { generation.withLock { $0 == value } }
    func keep(_ source: any DispatchSourceRead) { sources.withLock { $0.append(RetainedSource(source)) } }
}

/// Keeps a read source alive. `@unchecked Sendable`: Dispatch sources are thread-safe objects; this box only
/// holds the reference and never touches the source.
private final class RetainedSource: @unchecked Sendable {
    let source: any DispatchSourceRead
    init(_ source: any DispatchSourceRead) { self.source = source }
}
