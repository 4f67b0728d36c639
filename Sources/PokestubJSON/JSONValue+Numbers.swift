// `.number(_:)` for numbers computed at run time, so `.object(["count": .number(page.count)])` reads as
// the JSON it writes, whether the number is whole or not.

extension JSONValue {
    /// A whole number: ``integer(_:)``.
    ///
    /// - Parameter value: The number, e.g. `results.count`.
    /// - Returns: The JSON number, written without a fraction (`20`).
    public static func number(_ value: Int) -> JSONValue {
        .integer(Int64(value))
    }

    /// A number that may have a fraction: ``double(_:)``.
    ///
    /// - Parameter value: The number, e.g. `0.5`. JSON has no NaN or infinity: writing one fails.
    /// - Returns: The JSON number.
    public static func number(_ value: Double) -> JSONValue {
        .double(value)
    }
}
