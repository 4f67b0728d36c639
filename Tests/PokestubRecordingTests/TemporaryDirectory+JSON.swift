import PokestubCore
import PokestubTestSupport

extension TemporaryDirectory {
    /// A file parsed as JSON, such as a recorded mapping.
    ///
    /// - Parameter relative: The file's path relative to the folder (`mappings/a.GET.json`).
    /// - Returns: The parsed value.
    /// - Throws: The file system's error, or the parser's when the file is not JSON.
    func json(_ relative: String) throws -> JSONValue {
        try JSONValue.parse(try data(relative))
    }
}
