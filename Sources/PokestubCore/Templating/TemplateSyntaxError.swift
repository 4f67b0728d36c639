/// A response template that cannot be parsed, or names a helper pokestub does not have.
///
/// The message names the mustache as written and the line of the template it is on (1 is the first), so a
/// stub load error can point at the bad expression.
public struct TemplateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the expression as written.
    public var message: String
    /// The template line (1 is the first).
    public var line: Int

    /// Creates an error.
    public init(_ message: String, line: Int) {
        self.message = message
        self.line = line
    }

    public var description: String { "template line \(line): \(message)" }
}
