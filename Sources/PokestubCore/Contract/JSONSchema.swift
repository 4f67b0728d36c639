import Foundation

/// One JSON Schema, of the subset PokeAPI's published schemas are written in: `type`, `properties`,
/// `required`, `items`, `anyOf` and `$ref` (what `ditto analyze`, through genson, writes; see
/// `../shared/pokeapi/README.md`).
///
/// ```json
/// {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"},
///  "stats": {"type": "array", "items": {"$ref": "/schema/v2/pokemon_stat.json"}}}}
/// ```
///
/// Every keyword present applies (as in JSON Schema 2020-12, where `$ref` no longer hides its siblings).
/// A schema using any other validation keyword (`enum`, `minimum`, `additionalProperties`, …) is refused when
/// read, so that nothing it asks for passes unchecked; annotations (`$schema`, `$id`, `title`, `description`,
/// `$comment`, `default`, `examples`) are accepted and ignored.
package final class JSONSchema: Sendable {
    /// The types a value may have, or `nil` for any.
    package let types: [JSONSchemaType]?
    /// Schemas of object members, by member name; members not named here may have any value.
    package let properties: [String: JSONSchema]
    /// Members an object must have.
    package let required: [String]
    /// The schema every element of an array must fit.
    package let items: JSONSchema?
    /// Schemas of which a value must fit at least one; empty when the keyword is absent.
    package let anyOf: [JSONSchema]
    /// The `$ref` as written, when there is one.
    package let reference: String?
    /// The schema file this schema is part of, relative to its schema folder (`pokemon/$id/index.json`):
    /// where a relative `$ref` is resolved from.
    package let document: String

    /// The keywords this subset checks.
    package static let validationKeywords: Set<String> = ["type", "properties", "required", "items", "anyOf", "$ref"]
    /// Keywords that say nothing about valid values, accepted and ignored.
    package static let annotationKeywords: Set<String> = [
        "$schema", "$id", "title", "description", "$comment", "default", "examples",
    ]

    /// Reads a schema.
    ///
    /// - Parameters:
    ///   - json: The schema object.
    ///   - document: The schema file it is read from, relative to the schema folder.
    ///   - location: Where `json` is inside the file, as keywords from its root (for errors).
    /// - Throws: ``JSONSchemaError`` for a keyword outside the subset or a keyword of the wrong shape.
    package init(json: JSONValue, document: String, location: [String] = []) throws(JSONSchemaError) {
        guard case .object(let members) = json else {
            throw JSONSchemaError(document: document, location: location, message: "a schema must be an object")
        }
        func failure(_ keyword: String, _ message: String) -> JSONSchemaError {
            JSONSchemaError(document: document, location: location + [keyword], message: message)
        }
        for keyword in members.keys.sorted()
        where !JSONSchema.validationKeywords.contains(keyword) && !JSONSchema.annotationKeywords.contains(keyword) {
            throw failure(
                keyword,
                "is not in the subset pokestub checks (type, properties, required, items, anyOf, $ref); a value it "
                    + "refuses would pass unchecked")
        }
        self.document = document
        switch members["type"] {
        case nil:
            types = nil
        case .string(let name)?:
            guard let type = JSONSchemaType(rawValue: name) else { throw failure("type", "unknown type \(name)") }
            types = [type]
        case .array(let names)?:
            var list: [JSONSchemaType] = []
            for name in names {
                guard let text = name.stringValue, let type = JSONSchemaType(rawValue: text) else {
                    throw failure("type", "unknown type \(name.serializedString())")
                }
                list.append(type)
            }
            types = list
        case let other?:
            throw failure("type", "must be a type name or an array of them, not \(other.typeName)")
        }
        var properties: [String: JSONSchema] = [:]
        if let value = members["properties"] {
            guard case .object(let schemas) = value else { throw failure("properties", "must be an object") }
            for (name, schema) in schemas {
                properties[name] = try JSONSchema(
                    json: schema, document: document, location: location + ["properties", name])
            }
        }
        self.properties = properties
        if let value = members["required"] {
            guard case .array(let names) = value, names.allSatisfy({ $0.stringValue != nil }) else {
                throw failure("required", "must be an array of member names")
            }
            required = names.compactMap(\.stringValue)
        } else {
            required = []
        }
        if let value = members["items"] {
            guard case .object = value else {
                throw failure("items", "must be one schema (an array of schemas is not in the subset)")
            }
            items = try JSONSchema(json: value, document: document, location: location + ["items"])
        } else {
            items = nil
        }
        if let value = members["anyOf"] {
            guard case .array(let schemas) = value, !schemas.isEmpty else {
                throw failure("anyOf", "must be a non-empty array of schemas")
            }
            var list: [JSONSchema] = []
            for (position, schema) in schemas.enumerated() {
                list.append(
                    try JSONSchema(json: schema, document: document, location: location + ["anyOf", "\(position)"]))
            }
            anyOf = list
        } else {
            anyOf = []
        }
        if let value = members["$ref"] {
            guard let text = value.stringValue, !text.isEmpty else { throw failure("$ref", "must be a string") }
            reference = text
        } else {
            reference = nil
        }
    }

    /// Every `$ref` in this schema and the schemas inside it.
    var references: [String] {
        var found = reference.map { [$0] } ?? []
        for schema in properties.values { found += schema.references }
        if let items { found += items.references }
        for schema in anyOf { found += schema.references }
        return found
    }
}
