#if canImport(Darwin)
    import Darwin
    import Dispatch
    import PokestubLocking

    /// Darwin's ``StubTreeEventSource``.
    typealias PlatformStubTreeEvents = VnodeStubTreeEvents

    /// Stub tree events from kqueue vnode events through Dispatch: each folder of the tree
    /// (``StubTreeWatcher/folders(under:)``), and as many of its files as the descriptor budget allows, is
    /// opened with `O_EVTONLY` (a descriptor for event notification only, which does not keep a volume from
    /// unmounting) and watched with `DispatchSource.makeFileSystemObjectSource(fileDescriptor:eventMask:queue:)`.
    ///
    /// A folder reports `write` when an entry is created, deleted or renamed in it, which is how an atomic save,
    /// `git checkout` and pokestub's own recordings change files; a watched file reports `write` and `extend`
    /// for edits in place, `delete` and `rename` when it goes. `attrib` is left out: reading a file may update
    /// its access time, and the daemon reads body files at first use, so every reload would bring the next.
    /// Every event is a change (vnode events carry no file names, so hidden files cannot be told apart as
    /// inotify's can). Shortly after events (50 ms, well inside
    /// the watcher's debounce) the tree is scanned again: folders and files that appeared are watched, ones
    /// replaced (a new inode under the same path) or gone are dropped, and when anything new was found that is
    /// a change too, so what was written before its folder was watched is still reloaded.
    ///
    /// The descriptor budget: each watch holds a descriptor, and macOS gives a process 256 by default
    /// (`RLIMIT_NOFILE`), which the daemon also needs for its connections. Folders are always watched; files
    /// up to a quarter of the soft limit in all, `mappings/` before `__files/`. An in-place edit of a file past
    /// the budget is not seen (create, delete and rename still are); SIGHUP reloads then.
    ///
    /// Written against Apple's documentation and never compiled or run here (no Mac was available):
    /// - `DispatchSource.makeFileSystemObjectSource(fileDescriptor:eventMask:queue:)`:
    ///   <https://developer.apple.com/documentation/dispatch/dispatchsource/makefilesystemobjectsource(filedescriptor:eventmask:queue:)>
    /// - `DispatchSource.FileSystemEvent`:
    ///   <https://developer.apple.com/documentation/dispatch/dispatchsource/filesystemevent>
    /// - kqueue(2), `EVFILT_VNODE` and its `NOTE_WRITE`, `NOTE_EXTEND`, `NOTE_DELETE`, `NOTE_RENAME`,
    ///   `NOTE_LINK`, `NOTE_REVOKE`:
    ///   <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/kqueue.2.html>
    /// - open(2), `O_EVTONLY`:
    ///   <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/open.2.html>
    /// - getrlimit(2), `RLIMIT_NOFILE`:
    ///   <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/getrlimit.2.html>
    final class VnodeStubTreeEvents: StubTreeEventSource {
        private let root: String
        private let queue: DispatchQueue
        private let changed: @Sendable () -> Void
        private let fileBudget: Int
        /// The watched folders and files by path; `nil` once cancelled.
        private let watched = Locked<[String: WatchedNode]?>([:])
        private let rescanScheduled = Locked(false)

        private static var mask: DispatchSource.FileSystemEvent { [.write, .extend, .delete, .rename, .link, .revoke] }

        init?(root: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) {
            self.root = root
            self.queue = queue
            self.changed = changed
            fileBudget = VnodeStubTreeEvents.descriptorBudget()
            queue.sync { _ = rescan() }
        }

        func cancel() {
            let nodes = watched.withLock { watched in
                defer { watched = nil }
                return watched.map { Array($0.values) } ?? []
            }
            for node in nodes { node.source.cancel() }
        }

        deinit { cancel() }

        /// The watcher's share of the soft `RLIMIT_NOFILE` limit, as ``OpenFileLimit`` counts it
        /// (``OpenFileLimitPlatform/stubTreeWatcherDescriptors(softLimit:)``); 64 when the limit cannot be read.
        private static func descriptorBudget() -> Int {
            var limit = rlimit()
            guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return 64 }
            return OpenFileLimitPlatform.stubTreeWatcherDescriptors(softLimit: Int(clamping: limit.rlim_cur))
        }

        /// An event on a watched folder or file: a change, and a scan of the tree soon.
        private func handleEvent() {
            changed()
            let alreadyScheduled = rescanScheduled.withLock { scheduled in
                defer { scheduled = true }
                return scheduled
            }
            guard !alreadyScheduled else { return }
            queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [weak self] in
                guard let self else { return }
                rescanScheduled.withLock { $0 = false }
                if rescan() { changed() }
            }
        }

        /// Watches what is in the tree now and drops what is gone or replaced; runs on `queue`.
        ///
        /// - Returns: Whether a folder or file was newly watched.
        private func rescan() -> Bool {
            guard let previous = watched.withLock({ $0 }) else { return false }
            let folders = StubTreeWatcher.folders(under: root)
            var files: [String] = []
            for folder in folders where folder != root {
                for path in StubTreeWatcher.visibleEntries(of: folder)
                where VnodeStubTreeEvents.node(at: path)?.isRegularFile == true {
                    files.append(path)
                }
            }
            let wanted = folders + files.prefix(max(0, fileBudget - folders.count))
            var kept: [String: WatchedNode] = [:]
            var added = false
            for path in wanted {
                guard let identity = VnodeStubTreeEvents.node(at: path)?.identity else { continue }
                if let node = previous[path], node.identity == identity {
                    kept[path] = node
                } else if let node = watch(path, identity: identity) {
                    kept[path] = node
                    added = true
                }
            }
            for (path, node) in previous where kept[path] !== node { node.source.cancel() }
            let stored = watched.withLock { watched in
                guard watched != nil else { return false }  // cancelled meanwhile
                watched = kept
                return true
            }
            guard stored else {
                for node in kept.values { node.source.cancel() }
                return false
            }
            return added
        }

        /// Opens `path` with `O_EVTONLY` and starts a vnode source on it; `nil` when it cannot be opened.
        private func watch(_ path: String, identity: NodeIdentity) -> WatchedNode? {
            let descriptor = open(path, O_EVTONLY)
            guard descriptor >= 0 else { return nil }
            let source = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: descriptor, eventMask: VnodeStubTreeEvents.mask, queue: queue)
            source.setEventHandler { [weak self] in self?.handleEvent() }
            source.setCancelHandler { close(descriptor) }
            source.resume()
            return WatchedNode(identity: identity, source: source)
        }

        /// What `stat(2)` says of `path`, following symbolic links: its device and inode, and whether it is a
        /// regular file; `nil` when it is gone or neither a folder nor a regular file.
        private static func node(at path: String) -> (identity: NodeIdentity, isRegularFile: Bool)? {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            let type = status.st_mode & S_IFMT
            guard type == S_IFDIR || type == S_IFREG else { return nil }
            let identity = NodeIdentity(
                device: Int64(status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino))
            return (identity, type == S_IFREG)
        }
    }

    /// A file or folder as the file system knows it: a path replaced by rename gets a new inode.
    private struct NodeIdentity: Hashable, Sendable {
        let device: Int64
        let inode: UInt64
    }

    /// One watched folder or file. `@unchecked Sendable`: Dispatch sources are thread-safe objects; this box
    /// only holds the reference, which is cancelled when the node is dropped.
    private final class WatchedNode: @unchecked Sendable {
        let identity: NodeIdentity
        let source: any DispatchSourceFileSystemObject

        init(identity: NodeIdentity, source: any DispatchSourceFileSystemObject) {
            self.identity = identity
            self.source = source
        }
    }
#endif
