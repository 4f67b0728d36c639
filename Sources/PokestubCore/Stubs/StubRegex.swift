import Foundation

/// A regular expression from a stub, matched against a whole value as WireMock (Java's `String.matches`) does.
///
/// Uses ICU syntax through `NSRegularExpression`, which is close to Java's. `.` also matches line breaks, as
/// in WireMock (checked against WireMock 2.35: `matches ".*end"` passes for `"start\nend"`).
public struct StubRegex: Sendable, Hashable {
    /// The pattern as written in the stub.
    public let pattern: String
    private let expression: Expression

    /// Compiles a pattern.
    ///
    /// - Throws: ``StubDefinitionError`` naming the pattern when it does not compile.
    public init(_ pattern: String) throws(StubDefinitionError) {
        self.pattern = pattern
        do {
            expression = Expression(
                try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z", options: [.dotMatchesLineSeparators]))
        } catch {
            throw StubDefinitionError("invalid regular expression \(pattern.debugDescription)")
        }
    }

    /// Whether the pattern matches all of `value`.
    public func matches(_ value: String) -> Bool {
        let range = NSRange(value.startIndex..<value.endIndex, in: value)
        return expression.regex.firstMatch(in: value, options: [], range: range) != nil
    }

    /// The longest literal text every match must start with, for indexing (`/api/v2/pokemon/[0-9]+` gives
    /// `/api/v2/pokemon/`). Empty when the pattern starts with a metacharacter or has alternation at the top.
    public var literalPrefix: String {
        var prefix = ""
        var iterator = pattern.makeIterator()
        var escaped = false
        if pattern.hasPrefix("^") { _ = iterator.next() }
        while let character = iterator.next() {
            if escaped {
                if character.isLetter || character.isNumber { break }  // \d, \w, \1 … are classes or references
                prefix.append(character)
                escaped = false
                continue
            }
            if character == "\\" {
                escaped = true
                continue
            }
            if ".[]()*+?{}|^$".contains(character) {
                // A quantifier applies to the character before it, which is then not certain.
                if "*?{".contains(character), !prefix.isEmpty { prefix.removeLast() }
                break
            }
            prefix.append(character)
        }
        return pattern.contains("|") ? "" : prefix
    }

    public static func == (lhs: StubRegex, rhs: StubRegex) -> Bool { lhs.pattern == rhs.pattern }
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    /// Wraps `NSRegularExpression`, which is immutable and documented as safe to share across threads.
    private final class Expression: @unchecked Sendable {
        let regex: NSRegularExpression
        init(_ regex: NSRegularExpression) { self.regex = regex }
    }
}
