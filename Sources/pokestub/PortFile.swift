import Foundation

/// The file `--port-file PATH` (`portFile`, `POKESTUB_PORT_FILE`) names: once the daemon serves, it holds
/// the bound port in decimal and a newline, nothing else, so a test runner that started
/// `pokestub serve --port 0` can wait for the file and read the port the system picked.
///
/// The file appears whole or not at all: the port is written to a temporary file in the same folder, which
/// then replaces `PATH` with `rename(2)`, atomic within one file system (POSIX `rename`; Apple's rename(2)
/// manual page says the same). It is not synced to disk: readers are processes on the same machine while the
/// daemon runs, and a crash makes the port stale anyway. A graceful stop removes the file again when it
/// still holds this daemon's port.
///
/// ```swift
/// let portFile = try PortFile(path: "/tmp/pokestub.port")  // fails now if /tmp is not a folder
/// try portFile.write(port: 54321)                          // "54321\n"
/// portFile.remove(ifHolding: 54321)
/// ```
struct PortFile: Sendable {
    /// The path as configured.
    let path: String
    /// The folder the file goes in, where the temporary file is written too.
    let folder: String

    /// Checks that the file's folder exists, so a wrong path fails at start, before stubs are loaded or a
    /// port is bound.
    ///
    /// - Parameter path: The file's path; relative to the working directory unless absolute.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/cannotCreate`` naming the path and the folder when the
    ///   folder is missing or is not a folder.
    init(path: String) throws(CommandFailure) {
        self.path = path
        let parent = (path as NSString).deletingLastPathComponent
        folder = parent.isEmpty ? "." : parent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw Self.failure(path, "folder \(folder) does not exist")
        }
        guard isFolder.boolValue else { throw Self.failure(path, "\(folder) is not a folder") }
    }

    /// Writes `port` and a newline to a temporary file beside ``path``, then renames it onto ``path``.
    ///
    /// - Parameter port: The bound TCP port.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/cannotCreate`` naming the path and the system's reason
    ///   (the temporary file is removed).
    func write(port: Int) throws(CommandFailure) {
        let name = (path as NSString).lastPathComponent
        // A dot name in the same folder: on the same file system, so the rename is atomic, and hidden from
        // a reader that lists the folder.
        let temporary = (folder as NSString).appendingPathComponent(".\(name).\(getpid()).tmp")
        do {
            try Data("\(port)\n".utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw Self.failure(path, "cannot write \(temporary): \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Self.failure(path, "cannot rename \(temporary) onto it: \(reason)")
        }
    }

    /// Removes the file when it still holds `port`, as ``write(port:)`` wrote it; a file another daemon has
    /// written since is left alone.
    ///
    /// - Parameter port: The port this daemon wrote.
    func remove(ifHolding port: Int) {
        guard let data = FileManager.default.contents(atPath: path), data == Data("\(port)\n".utf8) else { return }
        unlink(path)
    }

    private static func failure(_ path: String, _ reason: String) -> CommandFailure {
        CommandFailure(status: .cannotCreate, message: "cannot write the port file \(path): \(reason)")
    }
}
