extension JSONValue {
    /// Whether this is an object or an array.
    var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
