/// A response template that cannot be parsed, or names a helper pokestub does not have.
///
/// The message names the mustache as written and the line of the template it is on (1 is the first), so a
/// stub load error can point at the bad expression.
package struct TemplateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with the expression as written.
    package var message: String
    /// The template line (1 is the first).
    package var line: Int

    /// Creates an error.
    package init(_ message: String, line: Int) {
        self.message = message
        self.line = line
    }

    package var description: String { "template line \(line): \(message)" }
}
