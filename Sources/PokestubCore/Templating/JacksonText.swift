/// JSON text as WireMock's `jsonPath` helper prints a selected container: an object through Jackson's
/// default pretty printer (`{\n  "a" : 1,\n  "b" : [ 1, 2 ]\n}`), an array compactly (`["x","y"]`).
/// Keys are sorted: pokestub's JSON values keep no member order.
enum JacksonText {
    static func text(of value: JSONValue) -> String {
        if case .array = value { return compact(value) }
        var output = ""
        pretty(value, depth: 0, into: &output)
        return output
    }

    static func compact(_ value: JSONValue) -> String {
        switch value {
        case .array(let items): return "[" + items.map(compact).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { quoted($0) + ":" + compact(members[$0]!) }.joined(separator: ",")
                + "}"
        default: return scalar(value)
        }
    }

    private static func pretty(_ value: JSONValue, depth: Int, into output: inout String) {
        switch value {
        case .object(let members):
            guard !members.isEmpty else {
                output += "{ }"
                return
            }
            output += "{\n"
            let keys = members.keys.sorted()
            for (position, key) in keys.enumerated() {
                output += String(repeating: "  ", count: depth + 1) + quoted(key) + " : "
                pretty(members[key]!, depth: depth + 1, into: &output)
                output += position == keys.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: depth) + "}"
        case .array(let items):
            guard !items.isEmpty else {
                output += "[ ]"
                return
            }
            output += "[ "
            for (position, item) in items.enumerated() {
                if position > 0 { output += ", " }
                pretty(item, depth: depth, into: &output)
            }
            output += " ]"
        default:
            output += scalar(value)
        }
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
