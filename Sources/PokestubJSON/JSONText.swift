import Foundation

/// JSON as written: values found, compacted and re-indented in the bytes of their source text, so object
/// members keep their order, numbers their spelling (and so their exact value) and strings their escapes.
///
/// ``JSONValue`` keeps none of these (its objects are dictionaries, its numbers `Int64` or `Double`), which is
/// right for matching and wrong for serving: a stub's `jsonBody` is served as its file writes it, compacted.
/// Every function expects text that a JSON parser has already accepted (RFC 8259); on other text it returns
/// `nil` or stops early rather than fail.
///
/// ```swift
/// let text = Data(#"{"response": {"jsonBody": {"name": "fire", "id": 10, "weight": 1.0}}}"#.utf8)
/// let body = JSONText.value(at: [.key("response"), .key("jsonBody")], in: text).map(JSONText.compacted)
/// // {"name":"fire","id":10,"weight":1.0}
/// ```
public enum JSONText {
    /// One step of a path to a value: an object member by its name (written without escapes), or an array
    /// element by its position.
    public enum PathComponent: Sendable, Hashable {
        /// The member with this name.
        case key(String)
        /// The element at this position, from 0.
        case index(Int)
    }

    /// The bytes of the value at `path`, exactly as written (without the whitespace around it).
    ///
    /// - Parameters:
    ///   - path: Member names and element positions from the top-level value.
    ///   - text: JSON text.
    /// - Returns: The value's bytes, or `nil` when the path leads nowhere (or a name on it is written with
    ///   escapes in the text).
    public static func value(at path: [PathComponent], in text: Data) -> Data? {
        let bytes = [UInt8](text)
        var position = skipWhitespace(bytes, 0)
        for component in path {
            guard let next = step(component, bytes, position) else { return nil }
            position = next
        }
        guard position < bytes.count else { return nil }
        return Data(bytes[position..<skipValue(bytes, position)])
    }

    /// The members of the object `text` holds, in source order: each name (its escapes decoded) with its
    /// value's bytes exactly as written.
    ///
    /// ```swift
    /// let members = JSONText.members(of: Data(#"{"b": 1.0, "a": [2]}"#.utf8))
    /// // [("b", "1.0"), ("a", "[2]")] (the values as Data)
    /// ```
    ///
    /// - Parameter text: JSON text whose top-level value is an object.
    /// - Returns: The members, or `nil` when the value is not an object.
    public static func members(of text: Data) -> [(name: String, value: Data)]? {
        let bytes = [UInt8](text)
        let start = skipWhitespace(bytes, 0)
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var members: [(name: String, value: Data)] = []
        var index = skipWhitespace(bytes, start + 1)
        while index < bytes.count, bytes[index] == quote {
            let keyEnd = skipString(bytes, index)
            guard let name = try? JSONValue.parse(Data(bytes[index..<keyEnd])).stringValue else { return nil }
            index = skipWhitespace(bytes, keyEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            let valueStart = skipWhitespace(bytes, index + 1)
            let valueEnd = skipValue(bytes, valueStart)
            members.append((name, Data(bytes[valueStart..<valueEnd])))
            index = skipWhitespace(bytes, valueEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skipWhitespace(bytes, index + 1)
        }
        return members
    }

    /// The text without whitespace outside strings (RFC 8259 §2: insignificant whitespace); everything else,
    /// member order, number spelling and string escapes, is kept byte for byte.
    ///
    /// - Parameter text: JSON text.
    /// - Returns: The compact text.
    public static func compacted(_ text: Data) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        text.withUnsafeBytes { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == quote {
                    // A string is kept whole, escapes and all.
                    let end = JSONStringSkip.end(of: bytes, openingQuote: index)
                    output.append(contentsOf: bytes[index..<end])
                    index = end
                } else {
                    if !isWhitespace(byte) { output.append(byte) }
                    index += 1
                }
            }
        }
        return Data(output)
    }

    /// The text indented with two spaces a level and `"name": value` members, in source order, numbers and
    /// strings as written; an empty object or array stays `{}` or `[]`.
    ///
    /// - Parameters:
    ///   - text: JSON text.
    ///   - level: The indentation level the value starts at (its closing bracket is indented to it).
    /// - Returns: The indented text, without a final newline.
    public static func pretty(_ text: Data, level: Int = 0) -> Data {
        let bytes = [UInt8](compacted(text))
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var depth = level
        var index = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case quote:
                let end = skipString(bytes, index)
                output.append(contentsOf: bytes[index..<end])
                index = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                if index + 1 < bytes.count, bytes[index + 1] == closing(of: byte) {
                    output.append(bytes[index + 1])
                    index += 2
                    continue
                }
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                output.append(byte)
            }
            index += 1
        }
        return Data(output)
    }

    private static let quote = UInt8(ascii: "\"")

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func closing(of opening: UInt8) -> UInt8 {
        opening == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
    }

    private static func skipWhitespace(_ bytes: [UInt8], _ start: Int) -> Int {
        var index = start
        while index < bytes.count && isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    /// The position after the string starting at `start` (its opening quote).
    private static func skipString(_ bytes: [UInt8], _ start: Int) -> Int {
        bytes.withUnsafeBytes { JSONStringSkip.end(of: $0, openingQuote: start) }
    }

    /// The position after the value starting at `start`.
    private static func skipValue(_ bytes: [UInt8], _ start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case quote:
            return skipString(bytes, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case quote:
                    index = skipString(bytes, index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return bytes.count
        default:
            var index = start
            while index < bytes.count, !isWhitespace(bytes[index]), !",}]".utf8.contains(bytes[index]) { index += 1 }
            return index
        }
    }

    /// The start of the value `component` names inside the object or array starting at `start`, or `nil`.
    private static func step(_ component: PathComponent, _ bytes: [UInt8], _ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        var index = skipWhitespace(bytes, start + 1)
        switch component {
        case .key(let name):
            guard bytes[start] == UInt8(ascii: "{") else { return nil }
            let wanted = Array(name.utf8)
            while index < bytes.count, bytes[index] == quote {
                let keyEnd = skipString(bytes, index)
                let key = bytes[(index + 1)..<max(index + 1, keyEnd - 1)]
                index = skipWhitespace(bytes, keyEnd)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index = skipWhitespace(bytes, index + 1)
                if key.elementsEqual(wanted) { return index }
                index = skipWhitespace(bytes, skipValue(bytes, index))
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
                index = skipWhitespace(bytes, index + 1)
            }
            return nil
        case .index(let wanted):
            guard bytes[start] == UInt8(ascii: "[") else { return nil }
            var position = 0
            while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                if position == wanted { return index }
                index = skipWhitespace(bytes, skipValue(bytes, index))
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
                index = skipWhitespace(bytes, index + 1)
                position += 1
            }
            return nil
        }
    }
}
