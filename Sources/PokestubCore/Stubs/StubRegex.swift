import Foundation

/// A regular expression from a stub, matched against a whole value as WireMock (Java's `String.matches`) does.
///
/// Uses ICU syntax through `NSRegularExpression`, which is close to Java's. `.` also matches line breaks, as
/// in WireMock (checked against WireMock 2.35: `matches ".*end"` passes for `"start\nend"`).
package struct StubRegex: Sendable, Hashable {
    /// The pattern as written in the stub.
    package let pattern: String
    private let expression: Expression
    /// ``literalPrefix`` as scalars: a value that does not start with them cannot match, and is answered
    /// without running ICU.
    private let requiredPrefix: [Unicode.Scalar]

    /// Compiles a pattern.
    ///
    /// - Throws: ``StubDefinitionError`` naming the pattern when it does not compile.
    package init(_ pattern: String) throws(StubDefinitionError) {
        self.pattern = pattern
        do {
            expression = Expression(
                try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z", options: [.dotMatchesLineSeparators]))
        } catch {
            throw StubDefinitionError("invalid regular expression \(pattern.debugDescription)")
        }
        requiredPrefix = Array(StubRegex.literalPrefix(of: pattern).unicodeScalars)
    }

    /// Whether the pattern matches all of `value`.
    ///
    /// Matching backtracks, so a pattern such as `(a+)+$` takes time exponential in the length of a value
    /// that almost matches. Each match therefore has a budget of engine steps, linear in the value's length
    /// (``stepBudget(forLength:)``): enough for any pattern that scans a value a bounded number of times, far
    /// too little for catastrophic backtracking. A match that runs out of steps counts as no match (so
    /// `doesNotMatch` passes), as ICU itself answers when it gives up on a match.
    package func matches(_ value: String) -> Bool {
        evaluate(value).matched
    }

    /// ``matches(_:)`` with whether the step budget ran out. While a ``MatchBudget`` is current, the
    /// evaluation also draws from it, and takes no more steps than it has left.
    ///
    /// - Returns: `matched`: whether the pattern matches all of `value`; `exhaustedBudget`: whether matching
    ///   stopped because it used up ``stepBudget(forLength:)`` (then `matched` is `false`).
    package func evaluate(_ value: String) -> (matched: Bool, exhaustedBudget: Bool) {
        let range = NSRange(value.startIndex..<value.endIndex, in: value)
        // With `.reportProgress` ICU calls back about every 10,000 steps with no result; a result means a match.
        var allowedSteps = StubRegex.stepBudget(forLength: range.length)
        let requestBudget = MatchBudget.current
        if let requestBudget {
            if requestBudget.isSpent { return (false, true) }
            allowedSteps = min(allowedSteps, max(0, requestBudget.remaining))
        }
        // A whole-value match starts with the literal prefix, compared scalar by scalar as ICU compares
        // literal text (no canonical equivalence). The budget is charged what ICU's shortest run costs.
        if !requiredPrefix.isEmpty && !value.unicodeScalars.starts(with: requiredPrefix) {
            requestBudget?.spend(StubRegex.prefixMissSteps, pattern: pattern, stopped: false)
            return (false, false)
        }
        let allowedCallbacks = allowedSteps / 10_000
        var callbacks = 0
        var matched = false
        var exhausted = false
        expression.regex.enumerateMatches(in: value, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                matched = true
                stop.pointee = true
            } else {
                callbacks += 1
                if callbacks > allowedCallbacks {
                    exhausted = true
                    stop.pointee = true
                }
            }
        }
        requestBudget?.spend((callbacks + 1) * 10_000, pattern: pattern, stopped: exhausted)
        return (matched, exhausted)
    }

    /// The steps charged for a value that lacks the literal prefix: what ICU's shortest run costs (one
    /// progress interval of 10,000 steps).
    static let prefixMissSteps = 10_000

    /// The engine steps one match may take for a value of `length` UTF-16 units: a million, plus twenty per
    /// unit. Patterns that scan a value a few times use a few steps per unit. Measured here, the budget lets
    /// `(a+)+$` run about 11 ms on a 30-character value and about 20 ms on a 32 KB header; without it ICU, as
    /// Foundation ships it on Linux, gave up after about half a second per match (on other platforms a match
    /// may not stop at all), and a request compares a value with a pattern several times.
    package static func stepBudget(forLength length: Int) -> Int {
        1_000_000 + 20 * length
    }

    /// The longest literal text every match must start with, for indexing (`/api/v2/pokemon/[0-9]+` gives
    /// `/api/v2/pokemon/`). Empty when the pattern starts with a metacharacter or has alternation at the top.
    package var literalPrefix: String {
        String(String.UnicodeScalarView(requiredPrefix))
    }

    private static func literalPrefix(of pattern: String) -> String {
        // Metacharacters are ASCII: the pattern is read as Unicode scalars, not Characters.
        let scalars = pattern.unicodeScalars
        guard !scalars.contains("|") else { return "" }
        var prefix = String.UnicodeScalarView()
        var index = scalars.startIndex
        if index != scalars.endIndex && scalars[index] == "^" { index = scalars.index(after: index) }
        var escaped = false
        while index != scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            if escaped {
                // \d, \w, \1 … are classes or references.
                if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { break }
                prefix.append(scalar)
                escaped = false
                continue
            }
            switch scalar {
            case "\\":
                escaped = true
            case "*", "?", "{":
                // A quantifier applies to the character before it, which is then not certain.
                if !prefix.isEmpty { prefix.removeLast() }
                return String(prefix)
            case ".", "[", "]", "(", ")", "+", "}", "^", "$":
                return String(prefix)
            default:
                prefix.append(scalar)
            }
        }
        return String(prefix)
    }

    package static func == (lhs: StubRegex, rhs: StubRegex) -> Bool { lhs.pattern == rhs.pattern }
    package func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    /// Wraps `NSRegularExpression`, which is immutable and documented as safe to share across threads.
    private final class Expression: @unchecked Sendable {
        let regex: NSRegularExpression
        init(_ regex: NSRegularExpression) { self.regex = regex }
    }
}
