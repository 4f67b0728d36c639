import Foundation

/// A folder of its own for one test under the system's temporary folder, removed when the test's closure
/// returns or throws.
struct TemporaryDirectory {
    /// The folder.
    let url: URL

    /// The folder's path.
    var path: String { url.path }

    /// Runs `body` with a new empty folder and removes the folder afterwards.
    static func with<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pokestub-coretests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(TemporaryDirectory(url: url))
    }

    /// Writes text to a path relative to the folder, creating folders on the way.
    @discardableResult
    func write(_ text: String, to relative: String) throws -> URL {
        try write(Data(text.utf8), to: relative)
    }

    /// Writes bytes to a path relative to the folder, creating folders on the way.
    @discardableResult
    func write(_ data: Data, to relative: String) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Creates a symbolic link at `relative` pointing to `destination`.
    func symlink(_ relative: String, to destination: URL) throws {
        let link = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: destination)
    }

    /// Removes a file or folder relative to the folder.
    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(relative))
    }
}
