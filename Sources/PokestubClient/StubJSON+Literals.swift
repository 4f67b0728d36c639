extension StubJSON: ExpressibleByNilLiteral {
    /// `nil` is `null`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension StubJSON: ExpressibleByBooleanLiteral {
    /// `true` and `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension StubJSON: ExpressibleByIntegerLiteral {
    /// An integer such as `20`.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension StubJSON: ExpressibleByFloatLiteral {
    /// A fractional number such as `0.5`.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension StubJSON: ExpressibleByStringLiteral {
    /// A string such as `"bulbasaur"`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension StubJSON: ExpressibleByArrayLiteral {
    /// An array such as `[1, "two", nil]`.
    public init(arrayLiteral elements: StubJSON...) {
        self = .array(elements)
    }
}

extension StubJSON: ExpressibleByDictionaryLiteral {
    /// An object such as `["name": "bulbasaur"]`. When a key repeats, the last value wins.
    public init(dictionaryLiteral elements: (String, StubJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
