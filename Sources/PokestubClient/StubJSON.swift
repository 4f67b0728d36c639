import Foundation

/// A JSON value as the admin API reads and writes it: stub mappings, request patterns, `jsonBody` bodies.
///
/// Write it with literals:
///
/// ```swift
/// let body: StubJSON = [
///     "count": 2,
///     "next": nil,
///     "results": [["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"]],
/// ]
/// ```
///
/// Integers and fractional numbers stay apart (``integer(_:)`` and ``double(_:)``), so `20` is written back
/// as `20`, never `20.0`. Objects serialize with sorted keys, so the same value always gives the same text.
public enum StubJSON: Sendable, Hashable {
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
    case array([StubJSON])
    /// An object; member order is not kept (serialization sorts the keys).
    case object([String: StubJSON])

    /// The member named `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> StubJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` when this is an array and the index is in range, otherwise `nil`.
    public subscript(index: Int) -> StubJSON? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The text when this is a string, otherwise `nil`.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number as an `Int` when this is an integer (or a double with no fraction), otherwise `nil`.
    public var intValue: Int? {
        switch self {
        case .integer(let value): return Int(exactly: value)
        case .double(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The number when this is an integer or a double, otherwise `nil`.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The flag when this is `true` or `false`, otherwise `nil`.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The elements when this is an array, otherwise `nil`.
    public var arrayValue: [StubJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members when this is an object, otherwise `nil`.
    public var objectValue: [String: StubJSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }
}
