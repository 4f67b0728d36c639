import Foundation

/// A JSON text that could not be parsed.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    /// 1-based line of the problem. Known for every error ``JSONValue/parse(_:)-(Data)`` reports but a text
    /// larger than it reads: an error at the end of the text (`Unexpected end of file`) is placed on the text's
    /// last line.
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
