import Foundation

extension JSONValue {
    /// Parses JSON text.
    ///
    /// ```swift
    /// let page = try JSONValue.parse(#"{"count": 1302, "next": null}"#)
    /// let count = page["count"]?.intValue  // 1302
    /// ```
    ///
    /// - Parameter data: UTF-8 JSON text (RFC 8259). Top-level scalars are accepted; a comma before `]` or `}`
    ///   is not (Foundation's parser takes it, WireMock's Jackson does not).
    /// - Returns: The parsed value.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line (and, when known, column) of the problem.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw JSONSyntaxError(data: data, error: error)
        }
        if let offset = TextPosition.offsetOfTrailingComma(in: data) {
            let (line, column) = TextPosition.lineAndColumn(ofByteOffset: offset, in: data)
            throw JSONSyntaxError(
                line: line, column: column, message: "invalid JSON: Trailing comma around character \(offset).")
        }
        return JSONValue(foundation: object)
    }

    /// Parses JSON text given as a string.
    ///
    /// - Parameter text: JSON text such as `{"name": "bulbasaur"}`.
    /// - Returns: The parsed value.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line (and, when known, column) of the problem.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// Converts the output of `JSONSerialization` into a value.
    init(foundation object: Any) {
        // Strings first, as most values are strings and each failed cast looks up generic metadata; then native
        // Swift containers: testing them against a class (`is NSNull`) would bridge each one to an NSDictionary
        // or NSArray, which made loading stubs ten times slower.
        switch object {
        case let string as String:
            self = .string(string)
        case let dictionary as [String: Any]:
            // A fresh dictionary of the smallest size for its members: `mapValues` would keep the hash table
            // of Foundation's, which is sized for many more (1.5 KB for each of the 1,351 two-member entries
            // of a list stub's `transformerParameters`, kept as long as the stub is).
            var members = [String: JSONValue](minimumCapacity: dictionary.count)
            for (key, value) in dictionary { members[key] = JSONValue(foundation: value) }
            self = .object(members)
        case let array as [Any]:
            self = .array(array.map(JSONValue.init(foundation:)))
        case let number as NSNumber:
            if type(of: number) == JSONValue.booleanNumberType {
                self = .bool(number.boolValue)
            } else {
                let code = String(cString: number.objCType)
                if code == "d" || code == "f" {
                    // Foundation reads numbers beyond 64 bits as NSDecimalNumber, whose `doubleValue` can be off
                    // by one ulp on Linux (so 5.8446744073419104e+19 did not equal itself after a round trip);
                    // its decimal text converts exactly.
                    let double = (number as? NSDecimalNumber).flatMap { Double($0.stringValue) } ?? number.doubleValue
                    if let exact = Int64(exactly: double), !String(describing: number).contains(".") {
                        self = .integer(exact)
                    } else {
                        self = .double(double)
                    }
                } else if code == "Q", number.uint64Value > UInt64(Int64.max) {
                    self = .double(number.doubleValue)
                } else {
                    self = .integer(number.int64Value)
                }
            }
        case is NSNull:
            self = .null
        default:
            self = .string(String(describing: object))
        }
    }

    private static let booleanNumberType = type(of: NSNumber(value: true))
}
