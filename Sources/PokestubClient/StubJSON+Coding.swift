import Foundation

extension StubJSON: Codable {
    /// Decodes any JSON value: `true`/`false` as ``bool(_:)``, whole numbers that fit in 64 bits as
    /// ``integer(_:)``, other numbers as ``double(_:)``.
    ///
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
        } else if let elements = try? container.decode([StubJSON].self) {
            self = .array(elements)
        } else if let members = try? container.decode([String: StubJSON].self) {
            self = .object(members)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes the value as the JSON it stands for.
    ///
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

extension StubJSON {
    /// Parses JSON text.
    ///
    /// - Parameters:
    ///   - data: UTF-8 JSON text; any value is allowed at the top level.
    ///   - what: What the text is, for the error message, e.g. `a stub mapping`.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` naming what was being read.
    public init(parsing data: Data, what: String = "JSON") throws(PokestubClientError) {
        do {
            self = try JSONDecoder().decode(StubJSON.self, from: data)
        } catch {
            throw .invalidJSON(what: what, reason: StubJSON.reason(error))
        }
    }

    /// Parses JSON text.
    ///
    /// - Parameters:
    ///   - text: JSON text such as `{"name": "bulbasaur"}`.
    ///   - what: What the text is, for the error message, e.g. `a stub mapping`.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` naming what was being read.
    public init(parsing text: String, what: String = "JSON") throws(PokestubClientError) {
        try self.init(parsing: Data(text.utf8), what: what)
    }

    /// Converts any `Encodable` value (a model of the app, say) to JSON.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: The encoder to use; set its key strategy to match the API (PokeAPI uses snake case).
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when the value cannot be encoded.
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws(PokestubClientError) {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw .invalidJSON(what: "the encoded \(type(of: value))", reason: StubJSON.reason(error))
        }
        try self.init(parsing: data, what: "the encoded \(type(of: value))")
    }

    /// The value as UTF-8 JSON text with sorted keys and unescaped slashes.
    ///
    /// - Parameter pretty: Whether to indent; compact by default.
    /// - Returns: The text; a non-finite number (which JSON cannot hold) is written as `null`.
    public func serialized(pretty: Bool = false) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(self) { return data }
        return (try? encoder.encode(replacingNonFiniteNumbers())) ?? Data("null".utf8)
    }

    /// The value as JSON text with sorted keys, e.g. `{"limit":20,"name":"bulbasaur"}`.
    ///
    /// - Parameter pretty: Whether to indent; compact by default.
    /// - Returns: The text.
    public func serializedString(pretty: Bool = false) -> String {
        String(decoding: serialized(pretty: pretty), as: UTF8.self)
    }

    /// Decodes the value as a `Decodable` type.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder to use.
    /// - Returns: The decoded value.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when it does not have the type's shape.
    public func decode<Value: Decodable>(
        _ type: Value.Type, decoder: JSONDecoder = JSONDecoder()
    ) throws(PokestubClientError) -> Value {
        do {
            return try decoder.decode(Value.self, from: serialized())
        } catch {
            throw .invalidJSON(what: "JSON as \(Value.self)", reason: StubJSON.reason(error))
        }
    }

    private func replacingNonFiniteNumbers() -> StubJSON {
        switch self {
        case .double(let number) where !number.isFinite: return .null
        case .array(let elements): return .array(elements.map { $0.replacingNonFiniteNumbers() })
        case .object(let members): return .object(members.mapValues { $0.replacingNonFiniteNumbers() })
        default: return self
        }
    }

    /// A one-line reason for a decoding or encoding failure, with the coding path when there is one.
    static func reason(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case DecodingError.dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let at = context.codingPath.isEmpty ? "" : " at \(path(context.codingPath))"
            return (underlying ?? context.debugDescription) + at
        case DecodingError.keyNotFound(let key, let context):
            return
                "missing \(key.stringValue.debugDescription) at \(path(context.codingPath).isEmpty ? "the root" : path(context.codingPath))"
        case DecodingError.typeMismatch(let type, let context):
            return
                "expected \(type) at \(path(context.codingPath).isEmpty ? "the root" : path(context.codingPath)): \(context.debugDescription)"
        case DecodingError.valueNotFound(let type, let context):
            return
                "expected \(type) at \(path(context.codingPath).isEmpty ? "the root" : path(context.codingPath)), found null"
        case EncodingError.invalidValue(_, let context):
            return context.debugDescription
        default:
            return String(describing: error)
        }
    }
}
