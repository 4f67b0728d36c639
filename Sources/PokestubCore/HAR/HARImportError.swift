/// Why a HAR file cannot be imported: it is not JSON, or not a HAR log (HAR 1.2: `log.entries`), or an entry
/// lacks a field the import needs.
package struct HARImportError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the entry (from 0) when it is one entry.
    package var description: String

    /// Creates an error.
    package init(_ description: String) {
        self.description = description
    }
}
