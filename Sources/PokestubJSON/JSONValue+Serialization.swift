import Foundation

extension JSONValue {
    /// Serialises the value as UTF-8 JSON with sorted keys and unescaped slashes.
    ///
    /// ```swift
    /// let value: JSONValue = ["name": "bulbasaur", "id": 1]
    /// let text = value.serializedString()  // {"id":1,"name":"bulbasaur"}
    /// ```
    ///
    /// Integers are written as integers. For recordings, whose bytes must not depend on the platform's
    /// Foundation, see ``CanonicalJSON``.
    ///
    /// - Parameter pretty: Indented output for files people read; compact otherwise.
    /// - Returns: The text. A ``double(_:)`` that is not finite, which JSON cannot hold, is written as `null`.
    public func serialized(pretty: Bool = false) -> Data {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
        if pretty { options.insert(.prettyPrinted) }
        // Cannot fail: every case maps to a JSON type and non-finite numbers are already `null`.
        return (try? JSONSerialization.data(withJSONObject: foundationObject, options: options)) ?? Data("null".utf8)
    }

    /// ``serialized(pretty:)`` as a string, e.g. `{"limit":20,"name":"bulbasaur"}`.
    ///
    /// - Parameter pretty: Indented output for files people read; compact otherwise.
    /// - Returns: The text.
    public func serializedString(pretty: Bool = false) -> String {
        String(decoding: serialized(pretty: pretty), as: UTF8.self)
    }

    /// The value as Foundation objects, for `JSONSerialization`; a non-finite number becomes `NSNull`, as
    /// Darwin's writer raises an exception on one and Linux's throws.
    var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): NSNumber(value: value)
        case .integer(let value): NSNumber(value: value)
        case .double(let value): value.isFinite ? NSNumber(value: value) : NSNull()
        case .string(let value): value
        case .array(let values): values.map(\.foundationObject)
        case .object(let members): members.mapValues(\.foundationObject)
        }
    }
}
