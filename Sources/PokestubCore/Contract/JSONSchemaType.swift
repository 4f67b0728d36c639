/// A JSON Schema type name (JSON Schema Validation 2020-12 §6.1.1).
package enum JSONSchemaType: String, Sendable, Hashable, CaseIterable {
    case null, boolean, integer, number, string, array, object

    /// Whether a value is of this type. A number with a zero fractional part is an `integer` (§6.1.1: "integer
    /// which matches any number with a zero fractional part"), so `2.0` is one; every number is a `number`.
    package func admits(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.null, .null), (.boolean, .bool), (.string, .string), (.array, .array), (.object, .object): true
        case (.number, .integer), (.number, .double), (.integer, .integer): true
        case (.integer, .double(let number)): number.isFinite && number.rounded(.towardZero) == number
        default: false
        }
    }

    /// The type a value is named by in a violation: `integer` for a whole number, `number` for another.
    package static func name(of value: JSONValue) -> String {
        JSONSchemaType.integer.admits(value) ? "integer" : value.typeName
    }
}
