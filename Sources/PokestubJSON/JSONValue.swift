import Foundation

/// A JSON document as a Swift value: what stub mappings, `jsonBody`, `metadata`, `equalToJson`, admin API
/// answers and closure routes' bodies hold.
///
/// Write it with literals, or with its cases for values computed at run time:
///
/// ```swift
/// let body: JSONValue = [
///     "count": 2,
///     "next": nil,
///     "results": [["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"]],
/// ]
/// let echo: JSONValue = .object(["limit": .string("20")])
/// ```
///
/// Objects do not keep the key order of their source text: Foundation's parser does not report it.
/// Serialisation therefore sorts keys, so the same value always gives the same text, which also keeps written
/// stubs stable for review in git. Where the text as written matters (a stub's `jsonBody`, a recorded body),
/// ``JSONText`` works on the source bytes instead. Numbers keep their integer-ness (``integer(_:)`` and ``double(_:)`` stay
/// apart), so `20` is written back as `20`, never `20.0`.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; member order is not kept (serialisation sorts the keys).
    case object([String: JSONValue])

    /// The member named `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` when this is an array and the index is in range, otherwise `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The text when this is a string, otherwise `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The flag when this is `true` or `false`, otherwise `nil`.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The elements when this is an array, otherwise `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members when this is an object, otherwise `nil`.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// A short name of the JSON type, for error messages: `object`, `array`, `string`, `number`, `boolean`, `null`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The number as a `Double` when this is an integer or a double, otherwise `nil`.
    ///
    /// An integer beyond 2^53 gives the nearest `Double`.
    public var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The number as a `Double` when this is an integer or a double, otherwise `nil`: ``numberValue`` under the
    /// name that matches ``intValue`` and ``stringValue``.
    public var doubleValue: Double? { numberValue }

    /// The number as an `Int` when this is an integer (or a double with no fraction) that fits, otherwise `nil`.
    public var intValue: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    /// Compares two values as JSON: numbers compare by value (`1` equals `1.0`), where `==` tells
    /// ``integer(_:)`` and ``double(_:)`` apart.
    ///
    /// - Parameter other: The value to compare with.
    /// - Returns: Whether both stand for the same JSON value.
    public func jsonEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.integer, .double), (.double, .integer), (.double, .double):
            return numberValue == other.numberValue
        default:
            return self == other
        }
    }
}
