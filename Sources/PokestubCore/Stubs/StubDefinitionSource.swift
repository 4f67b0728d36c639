import Foundation

/// The bytes a stub mapping was read from, kept instead of its parsed JSON and parsed again when the admin
/// API shows the mapping.
///
/// A parsed tree per stub (dictionaries, strings, numbers) held 13.7 MB for the 1,918 shipped stubs; the
/// mapping files' bytes are 3.9 MB, and the stubs of one file share one copy. Showing mappings is rare
/// (`GET /__admin/mappings`, near-miss reports); serving never needs them.
package struct StubDefinitionSource: Sendable, Equatable {
    /// The JSON text: one mapping, or a file of the form `{"mappings": [...]}`.
    package let data: Data
    /// The mapping's position in `mappings`, or `nil` when `data` is the mapping itself.
    package let item: Int?

    /// A source that is part of a stub file's bytes.
    ///
    /// - Parameters:
    ///   - data: The file's bytes, already parsed once without error.
    ///   - item: The position in the file's `mappings` array, or `nil` for a file holding one mapping.
    package init(data: Data, item: Int? = nil) {
        self.data = data
        self.item = item
    }

    /// A source for a mapping given as JSON (added at run time, recorded): its compact serialisation.
    package init(json: JSONValue) {
        self.init(data: json.serialized())
    }

    /// The mapping, with `id` and `uuid` set to the stub's id (WireMock shows both).
    ///
    /// - Parameter id: The stub's id.
    /// - Returns: The mapping object; `null` only if `data` no longer parses, which cannot happen for bytes
    ///   that made a stub.
    package func mapping(id: UUID) -> JSONValue {
        guard var json = try? JSONValue.parse(data) else { return .null }
        if let item {
            guard case .array(let items)? = json["mappings"], items.indices.contains(item) else { return .null }
            json = items[item]
        }
        guard case .object(var members) = json else { return json }
        members["id"] = .string(id.uuidString.lowercased())
        members["uuid"] = .string(id.uuidString.lowercased())
        return .object(members)
    }
}
