import Foundation

// Conversions between JSON and the client's callers, with errors as `PokestubClientError` says them.

extension JSONValue {
    /// Parses JSON text.
    ///
    /// - Parameters:
    ///   - data: UTF-8 JSON text; any value is allowed at the top level.
    ///   - what: What the text is, for the error message, e.g. `a stub mapping`.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` naming what was being read and where the
    ///   text is wrong.
    public init(parsing data: Data, what: String = "JSON") throws(PokestubClientError) {
        do {
            self = try JSONValue.parse(data)
        } catch {
            throw .invalidJSON(what: what, reason: JSONValue.reason(error))
        }
    }

    /// Parses JSON text.
    ///
    /// - Parameters:
    ///   - text: JSON text such as `{"name": "bulbasaur"}`.
    ///   - what: What the text is, for the error message, e.g. `a stub mapping`.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` naming what was being read and where the
    ///   text is wrong.
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
            throw .invalidJSON(what: "the encoded \(type(of: value))", reason: JSONValue.reason(error))
        }
        try self.init(parsing: data, what: "the encoded \(type(of: value))")
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
            throw .invalidJSON(what: "JSON as \(Value.self)", reason: JSONValue.reason(error))
        }
    }

    /// A one-line reason for a syntax, decoding or encoding failure, with the position or coding path when there
    /// is one.
    static func reason(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case let syntax as JSONSyntaxError:
            let place = [syntax.line.map { "line \($0)" }, syntax.column.map { "column \($0)" }].compactMap { $0 }
            return place.isEmpty ? syntax.message : "\(place.joined(separator: ", ")): \(syntax.message)"
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
