import Foundation

/// Comments in mapping files: WireMock reads its JSON with Jackson's `ALLOW_COMMENTS`, so `// …` to the end
/// of a line and `/* … */` may appear wherever white space may.
enum JSONComments {
    /// `data` with every comment outside strings replaced by spaces (line breaks kept, so lines and columns
    /// of problems stay where they are in the file), or `nil` when it has no comment.
    static func blankedOut(_ data: Data) -> Data? {
        let slash = UInt8(ascii: "/")
        guard data.contains(slash) else { return nil }
        var bytes = [UInt8](data)
        var index = 0
        var inString = false
        var found = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == slash {
                found = true
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                    bytes[index] = UInt8(ascii: " ")
                    index += 1
                }
                continue
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                found = true
                // An unclosed comment runs to the end, and the parser then reports what is missing.
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == slash) { end += 1 }
                let stop = min(bytes.count, end + 2)
                for position in index..<stop where bytes[position] != UInt8(ascii: "\n") {
                    bytes[position] = UInt8(ascii: " ")
                }
                index = stop
                continue
            }
            index += 1
        }
        return found ? Data(bytes) : nil
    }
}
