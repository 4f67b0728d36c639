import Foundation

/// A JSON document as a Swift value: what `jsonBody`, `metadata` and `equalToJson` hold.
///
/// Objects do not keep the key order of their source text: Foundation's parser does not report it.
/// Serialisation therefore sorts keys, which also keeps written stubs stable for review in git.
/// Numbers keep their integer-ness (`1` stays `1`, not `1.0`).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value at `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string when this is `.string`, else `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The members when this is `.object`, else `nil`.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

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

    /// The number as a `Double` when this is a number.
    public var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The number as an `Int` when this is an integral number.
    public var intValue: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    /// Compares two values as JSON: numbers compare by value (`1` equals `1.0`).
    public func jsonEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.integer, .double), (.double, .integer), (.double, .double):
            return numberValue == other.numberValue
        default:
            return self == other
        }
    }
}

// MARK: - Parsing and serialising

extension JSONValue {
    /// Parses JSON text.
    ///
    /// - Parameter data: UTF-8 JSON text (RFC 8259). Top-level scalars are accepted; a comma before `]` or `}`
    ///   is not (Foundation's parser takes it, WireMock's Jackson does not).
    /// - Returns: The parsed value.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line (and, when known, column) of the problem.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw JSONSyntaxError(data: data, error: error)
        }
        if let offset = TextPosition.offsetOfTrailingComma(in: data) {
            let (line, column) = TextPosition.lineAndColumn(ofByteOffset: offset, in: data)
            throw JSONSyntaxError(
                line: line, column: column, message: "invalid JSON: Trailing comma around character \(offset).")
        }
        return JSONValue(foundation: object)
    }

    /// Parses JSON text given as a string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// Converts the output of `JSONSerialization` into a value.
    init(foundation object: Any) {
        // Native Swift containers first: testing them against a class (`is NSNull`) would bridge each one
        // to an NSDictionary or NSArray, which made loading stubs ten times slower.
        switch object {
        case let dictionary as [String: Any]:
            self = .object(dictionary.mapValues(JSONValue.init(foundation:)))
        case let array as [Any]:
            self = .array(array.map(JSONValue.init(foundation:)))
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            if type(of: number) == JSONValue.booleanNumberType {
                self = .bool(number.boolValue)
            } else {
                let code = String(cString: number.objCType)
                if code == "d" || code == "f" {
                    // Foundation reads numbers beyond 64 bits as NSDecimalNumber, whose `doubleValue` can be off
                    // by one ulp on Linux (so 5.8446744073419104e+19 did not equal itself after a round trip);
                    // its decimal text converts exactly.
                    let double = (number as? NSDecimalNumber).flatMap { Double($0.stringValue) } ?? number.doubleValue
                    if let exact = Int64(exactly: double), !String(describing: number).contains(".") {
                        self = .integer(exact)
                    } else {
                        self = .double(double)
                    }
                } else if code == "Q", number.uint64Value > UInt64(Int64.max) {
                    self = .double(number.doubleValue)
                } else {
                    self = .integer(number.int64Value)
                }
            }
        case is NSNull:
            self = .null
        default:
            self = .string(String(describing: object))
        }
    }

    private static let booleanNumberType = type(of: NSNumber(value: true))

    /// The value as Foundation objects, for `JSONSerialization`.
    var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): NSNumber(value: value)
        case .integer(let value): NSNumber(value: value)
        case .double(let value): NSNumber(value: value)
        case .string(let value): value
        case .array(let values): values.map(\.foundationObject)
        case .object(let members): members.mapValues(\.foundationObject)
        }
    }

    /// Serialises the value as UTF-8 JSON with sorted keys and unescaped slashes.
    ///
    /// - Parameter pretty: Indented output for files people read; compact otherwise.
    public func serialized(pretty: Bool = false) -> Data {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
        if pretty { options.insert(.prettyPrinted) }
        // Serialising values built from JSON cannot fail: every case maps to a JSON type.
        return (try? JSONSerialization.data(withJSONObject: foundationObject, options: options)) ?? Data("null".utf8)
    }

    /// ``serialized(pretty:)`` as a string.
    public func serializedString(pretty: Bool = false) -> String {
        String(decoding: serialized(pretty: pretty), as: UTF8.self)
    }
}
