/// A schema that cannot be read: a keyword outside the subset, a keyword of the wrong shape, a `$ref` that
/// names no schema of the folder.
package struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The schema file, relative to its folder.
    package var document: String
    /// The keywords from the file's root to the one at fault.
    package var location: [String]
    /// What is wrong.
    package var message: String

    /// Creates an error.
    package init(document: String, location: [String], message: String) {
        self.document = document
        self.location = location
        self.message = message
    }

    /// `pokemon/$id/index.json: properties.stats.items.minimum: is not in the subset …`.
    package var description: String {
        location.isEmpty ? "\(document): \(message)" : "\(document): \(location.joined(separator: ".")): \(message)"
    }
}
