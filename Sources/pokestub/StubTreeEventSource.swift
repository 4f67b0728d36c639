import Dispatch

/// What a platform gives ``StubTreeWatcher``: "something under the stub root changed", as often as it likes.
/// The watcher debounces; a source only reports, and keeps watching folders that appear.
///
/// One conforming type per platform, in a platform file, named ``PlatformStubTreeEvents`` there:
/// `InotifyStubTreeEvents` (Linux, inotify(7)) and `VnodeStubTreeEvents` (Darwin, kqueue(2) vnode events
/// through Dispatch).
protocol StubTreeEventSource: Sendable {
    /// Starts watching `root` (see ``StubTreeWatcher/folders(under:)``); `nil` when the platform refuses.
    ///
    /// - Parameters:
    ///   - root: The stub root.
    ///   - queue: The serial queue events are handled on.
    ///   - changed: Called on `queue` after one or more changes.
    init?(root: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void)

    /// Stops watching: cancels the Dispatch sources, which close their descriptors once cancelled.
    func cancel()
}
