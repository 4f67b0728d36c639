import Foundation

/// A temporary stub root (`mappings/`, `__files/`) for one test, removed by ``remove()``.
struct StubsDirectory {
    let path: String

    /// Writes mapping files (name → JSON text) and body files (name → text) into a new folder.
    static func make(_ mappings: [String: String], files: [String: String] = [:]) throws -> StubsDirectory {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("pokestub-client-tests-\(UUID().uuidString)")
        for (folder, entries) in [("mappings", mappings), ("__files", files)] {
            let directory = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, text) in entries {
                let file = directory.appendingPathComponent(name)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
        }
        return StubsDirectory(path: root.path)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
