import Foundation
import PokestubJSON

/// Comments in mapping files: WireMock reads its JSON with Jackson's `ALLOW_COMMENTS`, so `// …` to the end
/// of a line and `/* … */` may appear wherever white space may.
enum JSONComments {
    /// `data` with every comment outside strings replaced by spaces (line breaks kept, so lines and columns
    /// of problems stay where they are in the file), or `nil` when it has no comment.
    static func blankedOut(_ data: Data) -> Data? {
        // Found first on the bytes as they are; a copy is made only for a file that has comments.
        let comments = data.withUnsafeBytes { JSONComments.ranges(in: $0) }
        guard !comments.isEmpty else { return nil }
        var bytes = [UInt8](data)
        for comment in comments {
            for position in comment where bytes[position] != UInt8(ascii: "\n") {
                bytes[position] = UInt8(ascii: " ")
            }
        }
        return Data(bytes)
    }

    /// The byte ranges of the comments outside strings, in order.
    private static func ranges(in bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        let slash = UInt8(ascii: "/")
        var comments: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index = JSONStringSkip.end(of: bytes, openingQuote: index)
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == slash {
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                comments.append(index..<end)
                index = end
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                // An unclosed comment runs to the end, and the parser then reports what is missing.
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == slash) { end += 1 }
                let stop = min(bytes.count, end + 2)
                comments.append(index..<stop)
                index = stop
            } else {
                index += 1
            }
        }
        return comments
    }
}
