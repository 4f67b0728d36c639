import Foundation
import PokestubCore

/// A folder in the temporary directory with `mappings/` and `__files/`, removed at deinit.
final class TemporaryFolder: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pokestub-rec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path + "/mappings", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path + "/__files", withIntermediateDirectories: true)
    }

    /// Every file under the folder, as sorted relative paths.
    var files: [String] {
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

    func data(_ relative: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path + "/" + relative))
    }

    func json(_ relative: String) throws -> JSONValue {
        try JSONValue.parse(try data(relative))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
