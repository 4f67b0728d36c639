import Foundation

/// Writes JSON the same way on every platform and Foundation version: two-space indent,
/// `"key": value`, keys sorted by their Unicode scalars, non-ASCII kept as UTF-8, `/` not escaped, control
/// characters as `\uXXXX`, integers as integers and other numbers in Swift's shortest round-trip form.
///
/// Stable bytes are what make "unchanged" mean unchanged and keep git diffs of re-recordings to what the
/// upstream really changed. ``JSONValue/serialized(pretty:)`` leaves the layout to the platform's Foundation.
///
/// ```swift
/// let text = CanonicalJSON.pretty(["name": "bulbasaur", "id": 1])
/// // {
/// //   "id": 1,
/// //   "name": "bulbasaur"
/// // }
/// ```
public enum CanonicalJSON {
    /// The value as pretty, canonical JSON text with a final newline.
    ///
    /// - Parameter value: The value to write.
    /// - Returns: UTF-8 text; a non-finite number, which JSON cannot hold, is written as `null`.
    public static func pretty(_ value: JSONValue) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(4_096)
        write(value, indent: 0, into: &output)
        output.append(UInt8(ascii: "\n"))
        return Data(output)
    }

    /// The value as compact canonical JSON: no whitespace between tokens, no final newline, keys and
    /// values written as ``pretty(_:)`` writes them.
    ///
    /// ```swift
    /// let text = CanonicalJSON.compact(["name": "bulbasaur", "id": 1])  // {"id":1,"name":"bulbasaur"}
    /// ```
    ///
    /// - Parameter value: The value to write.
    /// - Returns: UTF-8 text; a non-finite number, which JSON cannot hold, is written as `null`.
    public static func compact(_ value: JSONValue) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(1_024)
        write(value, indent: nil, into: &output)
        return Data(output)
    }

    /// Writes `value`; `indent` is the depth of a pretty layout, `nil` for the compact one.
    private static func write(_ value: JSONValue, indent: Int?, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: Array("null".utf8))
        case .bool(let flag): output.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .integer(let number): output.append(contentsOf: Array(String(number).utf8))
        case .double(let number):
            // Swift prints the shortest text that reads back as the same Double ("0.1", "1e-05").
            output.append(contentsOf: Array((number.isFinite ? "\(number)" : "null").utf8))
        case .string(let text): writeString(text, into: &output)
        case .array(let items):
            guard !items.isEmpty else {
                output.append(contentsOf: Array("[]".utf8))
                return
            }
            output.append(UInt8(ascii: "["))
            for (position, item) in items.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent.map { $0 + 1 }, into: &output)
                write(item, indent: indent.map { $0 + 1 }, into: &output)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else {
                output.append(contentsOf: Array("{}".utf8))
                return
            }
            output.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
            for (position, key) in keys.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent.map { $0 + 1 }, into: &output)
                writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                if indent != nil { output.append(UInt8(ascii: " ")) }
                write(members[key]!, indent: indent.map { $0 + 1 }, into: &output)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A line break and `indent` levels of two spaces; nothing in the compact layout.
    private static func newline(_ indent: Int?, into output: inout [UInt8]) {
        guard let indent else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static func writeString(_ text: String, into output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
