extension JSONValue {
    /// Whether this is an object or an array: a JSON document rather than a lone scalar such as `"text"` or `1`.
    public var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
