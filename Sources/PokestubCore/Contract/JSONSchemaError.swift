/// A schema that cannot be read: a keyword outside the subset, a keyword of the wrong shape, a `$ref` that
/// names no schema of the folder.
public struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The schema file, relative to its folder.
    public var document: String
    /// The keywords from the file's root to the one at fault.
    public var location: [String]
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(document: String, location: [String], message: String) {
        self.document = document
        self.location = location
        self.message = message
    }

    /// `pokemon/$id/index.json: properties.stats.items.minimum: is not in the subset …`.
    public var description: String {
        location.isEmpty ? "\(document): \(message)" : "\(document): \(location.joined(separator: ".")): \(message)"
    }
}
