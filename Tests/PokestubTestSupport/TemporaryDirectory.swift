import Foundation

/// A folder of its own for one test, under the system's temporary folder
/// (`<tmp>/pokestub-test-<UUID>`), removed with everything in it when the instance is released, when
/// ``removeFolder()`` is called, or when the closure given to ``with(_:)`` returns or throws.
///
/// Paths given to its methods are relative to the folder and use `/` (`mappings/a.json`); missing folders
/// on the way are created.
///
/// ```swift
/// let root = try TemporaryDirectory.stubRoot(mappings: ["a.json": #"{"request": {"urlPath": "/a"}}"#])
/// defer { root.removeFolder() }
/// let store = StubStore(root: root.path)
/// ```
///
/// `Sendable`: its only state is the folder's URL, which never changes.
package final class TemporaryDirectory: Sendable {
    /// The folder, an absolute file URL.
    package let url: URL

    /// The folder's absolute path.
    package var path: String { url.path }

    /// Creates a new, empty folder.
    ///
    /// - Throws: The file system's error when the folder cannot be created.
    package init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pokestub-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Creates a stub root laid out as the server reads one: `mappings/` and `__files/`, with the given files.
    ///
    /// - Parameters:
    ///   - mappings: Mapping files to write under `mappings/`: relative name (`pokemon/a.json`) to JSON text.
    ///   - files: Body files to write under `__files/`: relative name to text.
    /// - Returns: The new folder.
    /// - Throws: The file system's error when a folder or file cannot be written.
    package static func stubRoot(
        mappings: [String: String] = [:], files: [String: String] = [:]
    ) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for (folder, entries) in [("mappings", mappings), ("__files", files)] {
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent(folder), withIntermediateDirectories: true)
            for (name, text) in entries { try directory.write(text, to: folder + "/" + name) }
        }
        return directory
    }

    /// Runs `body` with a new empty folder and removes the folder when `body` returns or throws.
    ///
    /// - Parameter body: The test code, given the folder.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or the file system's error when the folder cannot be created.
    package static func with<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.removeFolder() }
        return try body(directory)
    }

    /// Writes UTF-8 text to a file, replacing it if it exists.
    ///
    /// - Parameters:
    ///   - text: The file's contents.
    ///   - relative: The file's path relative to the folder.
    /// - Returns: The file's absolute URL.
    /// - Throws: The file system's error.
    @discardableResult
    package func write(_ text: String, to relative: String) throws -> URL {
        try write(Data(text.utf8), to: relative)
    }

    /// Writes bytes to a file, replacing it if it exists.
    ///
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - relative: The file's path relative to the folder.
    /// - Returns: The file's absolute URL.
    /// - Throws: The file system's error.
    @discardableResult
    package func write(_ data: Data, to relative: String) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// Creates a symbolic link.
    ///
    /// - Parameters:
    ///   - relative: Where the link goes, relative to the folder.
    ///   - destination: What it points to, stored as this absolute URL.
    /// - Throws: The file system's error.
    package func symlink(_ relative: String, to destination: URL) throws {
        let link = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: destination)
    }

    /// Removes a file or folder inside the folder.
    ///
    /// - Parameter relative: Its path relative to the folder.
    /// - Throws: The file system's error, for instance when nothing is there.
    package func remove(_ relative: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(relative))
    }

    /// Every file below the folder (folders themselves left out), as relative paths sorted by their text.
    package var files: [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(relative)
            }
        }
        return files.sorted()
    }

    /// The bytes of a file.
    ///
    /// - Parameter relative: The file's path relative to the folder.
    /// - Returns: Its contents.
    /// - Throws: The file system's error.
    package func data(_ relative: String) throws -> Data {
        try Data(contentsOf: url.appendingPathComponent(relative))
    }

    /// Removes the folder and everything in it now; later calls, and the release of the instance, do nothing
    /// more. Call it from a `defer` to keep the folder for exactly the scope that uses its path.
    package func removeFolder() {
        try? FileManager.default.removeItem(at: url)
    }

    deinit {
        removeFolder()
    }
}
