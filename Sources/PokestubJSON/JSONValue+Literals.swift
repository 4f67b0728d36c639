// Literals, so a stub body or a closure route's answer is written as the JSON it stands for:
// `.json(["id": 1, "name": "bulbasaur", "next": nil])`.

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is `null`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` and `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer such as `20`.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A fractional number such as `0.5`.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string such as `"bulbasaur"`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

/// A string with interpolations, such as `"pokemon \(id)"`, in a literal such as a closure route's
/// `.json(["name": "pokemon \(id)"])`: the same `.string` as `.string("pokemon \(id)")`.
extension JSONValue: ExpressibleByStringInterpolation {}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array such as `[1, "two", nil]`.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object such as `["name": "bulbasaur"]`. When a key repeats, the last value wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
