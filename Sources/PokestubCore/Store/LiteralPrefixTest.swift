import Foundation

/// The literal text a stub's URL regex requires at the start of the request's path, tested by the stub index
/// before it evaluates the stub's request pattern: a request whose path lacks it cannot match, and is passed
/// over with no pattern copied and no regex machinery run.
///
/// The answer and the ``MatchBudget`` charge are those ``RequestPattern/matches(_:)`` gives such a request:
/// the method is compared first (a stub for another method fails without a URL test and charges nothing);
/// then each value ``URLPattern/matches(_:)`` hands the regex (the decoded path, and the raw path when it
/// differs; for `urlPattern` the path with its query) fails ``StubRegex/evaluate(_:)``'s own literal prefix
/// test, which charges ``StubRegex/prefixMissSteps`` unless the budget is spent. Only prefixes without `?`
/// are kept: then a value with the query starts with the prefix exactly when its path does (the path is
/// followed by `?` or nothing), so the path alone decides.
///
/// Shape: the prefix as UTF-8 bytes. A scalar sequence starts another exactly when its UTF-8 bytes start the
/// other's, so a byte comparison answers as ``StubRegex``'s scalar comparison does.
final class LiteralPrefixTest: Sendable {
    /// The stub's method, compared before the URL, or `nil` for any.
    let method: String?
    /// ``StubRegex/literalPrefix`` in UTF-8.
    let prefix: [UInt8]
    /// The regex as written, for messages.
    let pattern: String

    /// The test for a stub's request pattern, or `nil` when its URL is not a regex with a literal prefix
    /// free of `?` (then the pattern is always evaluated).
    init?(_ request: RequestPattern) {
        let regex: StubRegex
        switch request.url {
        case .urlPathPattern(let value)?, .urlPattern(let value)?: regex = value
        default: return nil
        }
        let prefix = Array(regex.literalPrefix.utf8)
        guard !prefix.isEmpty, !prefix.contains(UInt8(ascii: "?")) else { return nil }
        self.method = request.method
        self.prefix = prefix
        self.pattern = regex.pattern
    }

    /// How `request` fails the pattern before its regex runs: `nil` when it may match (its path has the
    /// prefix), 0 when it fails by its method, else the number of regex evaluations (1 or 2) the prefix
    /// refuses, each to be charged ``StubRegex/prefixMissSteps`` (``charge(_:to:)``).
    func refusals(_ request: HTTPRequest) -> Int? {
        if let method, method != request.method { return 0 }
        if starts(request.path) { return nil }
        guard request.rawPath != request.path else { return 1 }
        return starts(request.rawPath) ? nil : 2
    }

    /// Whether `value`'s UTF-8 starts with ``prefix``: one `memcmp` on a native string's bytes (the generic
    /// `starts(with:)` cost about 400 instructions a stub), the generic comparison on any other.
    private func starts(_ value: String) -> Bool {
        let compared = value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count >= prefix.count
                && prefix.withUnsafeBytes { memcmp(bytes.baseAddress!, $0.baseAddress!, prefix.count) == 0 }
        }
        return compared ?? value.utf8.starts(with: prefix)
    }

    /// Charges `refusals` prefix refusals to `budget` as ``StubRegex/evaluate(_:)`` charges each: nothing
    /// once the budget is spent. A refusal never spends the budget's last step (``MatchBudget/spentBy`` is set
    /// only by a run that stops for want of steps), so refusals between two full evaluations may be charged
    /// together, before the next one reads the budget.
    static func charge(_ refusals: Int, to budget: MatchBudget?) {
        guard refusals > 0, let budget, !budget.isSpent else { return }
        budget.spend(StubRegex.prefixMissSteps * refusals, pattern: "", stopped: false)
    }
}
