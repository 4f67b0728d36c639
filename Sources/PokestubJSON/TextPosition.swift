import Foundation

/// Turns offsets in a JSON text into 1-based lines and columns, and finds the line where a value is written.
///
/// The parser reports positions only for syntax errors, so problems found in a valid document (an
/// unsupported field, a value out of range) are placed by walking the text again along the problem's key path:
///
/// ```swift
/// let line = TextPosition.line(ofKeyPath: ["mappings", "1", "response", "status"], in: data)
/// ```
public enum TextPosition {
    /// The 1-based line and column of a byte offset.
    ///
    /// - Parameters:
    ///   - offset: A byte offset; offsets past the end give the position just after the last byte.
    ///   - data: The text.
    /// - Returns: The line and the column (in bytes), both from 1.
    public static func lineAndColumn(ofByteOffset offset: Int, in data: Data) -> (Int, Int) {
        var line = 1
        var column = 1
        for (index, byte) in data.enumerated() {
            if index >= offset { break }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// The 1-based line on which the value at a key path is named in a valid JSON text.
    ///
    /// Each component is an object member's name or an array position written in decimal (`["mappings", "1",
    /// "response", "status"]`). A component such as `bodyPatterns[2]` that is not itself a member name reads as
    /// the member `bodyPatterns` and then position 2, the way error messages often write key paths.
    ///
    /// - Parameters:
    ///   - keyPath: The path from the top-level value.
    ///   - data: A valid JSON text.
    /// - Returns: The line of the last member name (or array element) of the path that exists: where the
    ///   problem is, or as close as the text gets. `nil` when not even the first component exists.
    public static func line(ofKeyPath keyPath: [String], in data: Data) -> Int? {
        var walker = Walker(bytes: [UInt8](data))
        return walker.line(of: keyPath[...], found: nil)
    }

    /// `bodyPatterns[2]` gives (`bodyPatterns`, 2); anything else `nil`.
    static func splitPosition(_ component: String) -> (name: String, position: Int)? {
        guard component.hasSuffix("]"), let open = component.lastIndex(of: "[") else { return nil }
        let digits = component[component.index(after: open)..<component.index(before: component.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let position = Int(digits) else { return nil }
        return (String(component[..<open]), position)
    }

    /// A forward reader over a valid JSON text that counts lines as it goes.
    private struct Walker {
        let bytes: [UInt8]
        var index = 0
        var line = 1

        private static let quote = UInt8(ascii: "\"")
        private static let backslash = UInt8(ascii: "\\")

        /// Follows `path` from the value starting at `index`; `found` is the line of the path walked so far.
        mutating func line(of path: ArraySlice<String>, found: Int?) -> Int? {
            guard let component = path.first else { return found }
            skipWhitespace()
            guard index < bytes.count else { return found }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                let split = TextPosition.splitPosition(component)
                var fallback: (index: Int, line: Int, keyLine: Int)?
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == Walker.quote else { break }
                    let keyLine = line
                    let key = readString()
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
                    if key == component { return line(of: path.dropFirst(), found: keyLine) }
                    if let split, key == split.name, fallback == nil { fallback = (index, line, keyLine) }
                    skipValue()
                    guard skipComma() else { break }
                }
                guard let split, let fallback else { return found }
                (index, line) = (fallback.index, fallback.line)
                return line(of: [String(split.position)] + path.dropFirst(), found: fallback.keyLine)
            case UInt8(ascii: "["):
                guard let position = Int(component), position >= 0 else { return found }
                index += 1
                var element = 0
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { return found }
                    if element == position { return line(of: path.dropFirst(), found: line) }
                    skipValue()
                    guard skipComma() else { return found }
                    element += 1
                }
            default:
                return found
            }
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\n"): line += 1
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
                default: return
                }
                index += 1
            }
        }

        /// Skips a `,` after a member or element; `false` when the object or array ends instead.
        mutating func skipComma() -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
            index += 1
            return true
        }

        /// Skips one value of any kind.
        mutating func skipValue() {
            skipWhitespace()
            guard index < bytes.count else { return }
            switch bytes[index] {
            case Walker.quote:
                skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case Walker.quote:
                        skipString()
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return
                        }
                    case UInt8(ascii: "\n"): line += 1
                    default: break
                    }
                    index += 1
                }
            default:
                while index < bytes.count, !Array(" \t\r\n,]}".utf8).contains(bytes[index]) { index += 1 }
            }
        }

        /// Skips a string starting at its opening quote.
        mutating func skipString() {
            let start = index
            index = bytes.withUnsafeBytes { JSONStringSkip.end(of: $0, openingQuote: start) }
        }

        /// Reads a string starting at its opening quote, decoding escapes.
        mutating func readString() -> String {
            let start = index
            skipString()
            let literal = Data(bytes[start..<min(index, bytes.count)])
            if !literal.contains(Walker.backslash) {
                return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
            }
            return (try? JSONValue.parse(literal))?.stringValue ?? String(decoding: literal, as: UTF8.self)
        }
    }
}
