import Foundation

/// A JSON value that `equalToJson`, JSONPath and the `jsonPath` template helper read: a ``JSONValue`` (a
/// stub's document) or a ``JSONDocument/Node`` (a request body, read in place).
///
/// Both answer the same way for the same text: members are found as a Swift dictionary finds its keys
/// (canonical equivalence) by ``member(named:)``, or byte for byte by ``member(withUTF8:)``, and
/// ``memberValues`` come in the order of the sorted keys.
package protocol JSONTreeNode {
    /// The JSON type.
    var kind: JSONKind { get }
    /// An array's element count or an object's member count; 0 for a scalar.
    var count: Int { get }
    /// An array's elements in order; empty for anything else.
    var elements: [Self] { get }
    /// An array's element at `index`, or `nil`.
    func element(at index: Int) -> Self?
    /// An object's member values, ordered by their names as `String`'s `<` orders them; empty for anything else.
    var memberValues: [Self] { get }
    /// The member named `name` (by `String` equality), or `nil`.
    func member(named name: String) -> Self?
    /// The member whose name has exactly `name`'s UTF-8, or `nil`.
    func member(withUTF8 name: String) -> Self?
    /// Whether this is a string with exactly `text`'s UTF-8.
    func isString(sameUTF8As text: String) -> Bool
    /// A string's text, or `nil`.
    var stringValue: String? { get }
    /// A string's UTF-8, or `nil`.
    var stringUTF8: [UInt8]? { get }
    /// A number as ``JSONValue/integer(_:)`` or ``JSONValue/double(_:)``, or `nil`.
    var number: JSONValue? { get }
    /// A scalar as a ``JSONValue``, or `nil` for an array or an object.
    var scalar: JSONValue? { get }
    /// The whole value as a ``JSONValue``.
    func materialized() -> JSONValue
}

extension JSONValue: JSONTreeNode {
    package var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .integer, .double: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    package var count: Int {
        switch self {
        case .array(let items): items.count
        case .object(let members): members.count
        default: 0
        }
    }

    package var elements: [JSONValue] { arrayValue ?? [] }

    package func element(at index: Int) -> JSONValue? { self[index] }

    package var memberValues: [JSONValue] {
        guard case .object(let members) = self else { return [] }
        return members.keys.sorted().compactMap { members[$0] }
    }

    package func member(named name: String) -> JSONValue? { self[name] }

    package func member(withUTF8 name: String) -> JSONValue? {
        guard case .object(let members) = self, let index = members.index(forKey: name),
            members[index].key.utf8.elementsEqual(name.utf8)
        else { return nil }
        return members[index].value
    }

    package func isString(sameUTF8As text: String) -> Bool {
        guard case .string(let value) = self else { return false }
        return value.utf8.elementsEqual(text.utf8)
    }

    package var stringUTF8: [UInt8]? { stringValue.map { Array($0.utf8) } }

    package var number: JSONValue? {
        switch self {
        case .integer, .double: self
        default: nil
        }
    }

    package var scalar: JSONValue? { isContainer ? nil : self }

    package func materialized() -> JSONValue { self }
}

extension JSONDocument.Node: JSONTreeNode {
    package var stringUTF8: [UInt8]? { stringBytes.map { Array($0) } }
}
