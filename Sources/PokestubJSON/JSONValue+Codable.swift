import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value: `true`/`false` as ``bool(_:)``, whole numbers that fit in 64 bits as
    /// ``integer(_:)``, other numbers as ``double(_:)``.
    ///
    /// Lets a `Codable` model hold free-form JSON (`var metadata: JSONValue`). Which numbers count as whole
    /// is the decoder's call; `parse(_:)` keeps `1.0` a double.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the decoder holds no JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else if let members = try? container.decode([String: JSONValue].self) {
            self = .object(members)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes the value as the JSON it stands for.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: `EncodingError` for a ``double(_:)`` that is not finite (JSON has no NaN or infinity).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .integer(let integer): try container.encode(integer)
        case .double(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
