import Foundation

/// A JSON text that could not be parsed.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    /// 1-based line of the problem. Known for every error Foundation's parser reports: an error at the end of
    /// the text (`Unexpected end of file`) is placed on the text's last line.
    public var line: Int?
    /// 1-based column of the problem, in bytes, when known.
    public var column: Int?
    /// The parser's own message.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - line: The 1-based line, when known.
    ///   - column: The 1-based column in bytes, when known.
    ///   - message: What is wrong.
    public init(line: Int?, column: Int?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// The parser's message.
    public var description: String { message }
}

extension JSONSyntaxError {
    /// Builds the error from Foundation's, turning its "around character N" (a byte offset) into a line and
    /// column.
    ///
    /// Foundation's messages name the offset last (`Unescaped control character around character 9.`), so the
    /// last "character " is the one followed by the offset. Errors without an offset are about the end of the
    /// text and get the position just after its last byte.
    init(data: Data, error: any Error) {
        let nsError = error as NSError
        let detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        var line: Int?
        var column: Int?
        if let range = detail.range(of: "character ", options: .backwards),
            let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
        {
            (line, column) = TextPosition.lineAndColumn(ofByteOffset: offset, in: data)
        } else if let range = detail.range(of: "line ", options: .backwards),
            let parsedLine = Int(detail[range.upperBound...].prefix { $0.isNumber })
        {
            line = parsedLine
        } else {
            (line, column) = TextPosition.lineAndColumn(ofByteOffset: data.count, in: data)
        }
        self.init(line: line, column: column, message: "invalid JSON: \(detail)")
    }
}
