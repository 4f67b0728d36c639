/// JSON text as WireMock's `jsonPath` helper prints a selected container: an object through Jackson's
/// default pretty printer (`{\n  "a" : 1,\n  "b" : [ 1, 2 ]\n}`), an array compactly (`["x","y"]`).
/// Keys are sorted: pokestub's JSON values keep no member order.
enum JacksonText {
    static func text(of value: JSONValue) -> String {
        text(of: value, limit: Int.max)!
    }

    /// The text, or `nil` as soon as it would be longer than `limit` bytes (an object's indentation grows
    /// with its depth, so the text may be much longer than the JSON it was read from).
    static func text(of value: JSONValue, limit: Int) -> String? {
        var output = ""
        let complete: Bool
        if case .array = value {
            complete = compact(value, into: &output, limit: limit)
        } else {
            complete = pretty(value, depth: 0, into: &output, limit: limit)
        }
        return complete ? output : nil
    }

    /// Appends the compact text; `false` when it would pass `limit` bytes.
    private static func compact(_ value: JSONValue, into output: inout String, limit: Int) -> Bool {
        switch value {
        case .array(let items):
            output += "["
            for (position, item) in items.enumerated() {
                if position > 0 { output += "," }
                guard compact(item, into: &output, limit: limit) else { return false }
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (position, key) in members.keys.sorted().enumerated() {
                if position > 0 { output += "," }
                output += quoted(key) + ":"
                guard compact(members[key]!, into: &output, limit: limit) else { return false }
            }
            output += "}"
        default:
            output += scalar(value)
        }
        return output.utf8.count <= limit
    }

    /// Appends the pretty text; `false` when it would pass `limit` bytes.
    private static func pretty(_ value: JSONValue, depth: Int, into output: inout String, limit: Int) -> Bool {
        switch value {
        case .object(let members):
            guard !members.isEmpty else {
                output += "{ }"
                return output.utf8.count <= limit
            }
            output += "{\n"
            let keys = members.keys.sorted()
            for (position, key) in keys.enumerated() {
                guard output.utf8.count + 2 * (depth + 1) <= limit else { return false }
                output += String(repeating: "  ", count: depth + 1) + quoted(key) + " : "
                guard pretty(members[key]!, depth: depth + 1, into: &output, limit: limit) else { return false }
                output += position == keys.count - 1 ? "\n" : ",\n"
            }
            guard output.utf8.count + 2 * depth <= limit else { return false }
            output += String(repeating: "  ", count: depth) + "}"
        case .array(let items):
            guard !items.isEmpty else {
                output += "[ ]"
                return output.utf8.count <= limit
            }
            output += "[ "
            for (position, item) in items.enumerated() {
                if position > 0 { output += ", " }
                guard pretty(item, depth: depth, into: &output, limit: limit) else { return false }
            }
            output += " ]"
        default:
            output += scalar(value)
        }
        return output.utf8.count <= limit
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): quoted(text)
        default: ""
        }
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t` or `\u00XX`.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
