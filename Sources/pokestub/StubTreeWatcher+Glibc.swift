#if os(Linux)
    import Dispatch
    import Foundation
    import Glibc
    import PokestubLocking

    /// Linux's ``StubTreeEventSource``.
    typealias PlatformStubTreeEvents = InotifyStubTreeEvents

    /// Stub tree events from inotify(7): one inotify descriptor (`inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`), a
    /// watch on each folder of the tree (``StubTreeWatcher/folders(under:)``), read through a Dispatch read
    /// source. A folder created or moved in is watched as soon as its event is read, with every folder below
    /// it. Hidden files (a recording's temporary file, an editor's swap file) are not changes: a recording's
    /// file renamed into place is seen under its new name.
    ///
    /// References: inotify(7), inotify_init1(2), inotify_add_watch(2) (the Linux man-pages project).
    final class InotifyStubTreeEvents: StubTreeEventSource {
        private let descriptor: Int32
        private let changed: @Sendable () -> Void
        private let folders = Locked<[Int32: String]>([:])
        private let source = Locked<RetainedReadSource?>(nil)

        init?(root: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
            self.changed = changed
            for folder in StubTreeWatcher.folders(under: root) { watch(folder) }
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [weak self] in self?.drain() }
            source.setCancelHandler { close(descriptor) }
            source.resume()
            self.source.withLock { $0 = RetainedReadSource(source) }
        }

        func cancel() {
            source.withLock { source in
                source?.source.cancel()
                source = nil
            }
        }

        deinit { cancel() }

        private static let mask = UInt32(
            IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF
                | IN_MOVE_SELF | IN_ATTRIB)

        private func watch(_ path: String) {
            let watch = inotify_add_watch(descriptor, path, InotifyStubTreeEvents.mask)
            if watch >= 0 { folders.withLock { $0[watch] = path } }
        }

        /// Reads every pending event, watches new folders, and reports a change when there was one.
        private func drain() {
            var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
            var anyChange = false
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (watch, mask, nameLength, name) = buffer.withUnsafeBytes {
                        raw -> (Int32, UInt32, Int, String) in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let start = offset + MemoryLayout<inotify_event>.size
                        let nameBytes = raw[start..<min(start + Int(event.len), raw.count)].prefix { $0 != 0 }
                        return (event.wd, event.mask, Int(event.len), String(decoding: nameBytes, as: UTF8.self))
                    }
                    offset += MemoryLayout<inotify_event>.size + nameLength
                    // Hidden files are never stubs: a recording's temporary file (renamed into place, which is
                    // seen under the new name) or an editor's swap file.
                    guard !name.hasPrefix(".") || mask & UInt32(IN_ISDIR) != 0 else { continue }
                    anyChange = true
                    if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                        let parent = folders.withLock({ $0[watch] })
                    {
                        for folder in StubTreeWatcher.tree(at: (parent as NSString).appendingPathComponent(name)) {
                            self.watch(folder)
                        }
                    }
                }
            }
            if anyChange { changed() }
        }
    }

    /// Keeps a read source alive. `@unchecked Sendable`: Dispatch sources are thread-safe objects; this box
    /// only holds the reference.
    private final class RetainedReadSource: @unchecked Sendable {
        let source: any DispatchSourceRead
        init(_ source: any DispatchSourceRead) { self.source = source }
    }
#endif
