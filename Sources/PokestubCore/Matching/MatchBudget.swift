import Foundation

/// The regular-expression engine steps one request's matching may take, across every candidate stub.
///
/// Each evaluation of a stub's regular expression already has a budget of its own
/// (``StubRegex/stepBudget(forLength:)``), but a request compared with many stubs, each a pattern that
/// backtracks catastrophically, would spend that budget once per stub: a hundred such stubs made one request
/// take seconds and delayed every other client. While a budget is ``current``, every evaluation draws from it,
/// and once it is spent further evaluations stop at once; the engine then answers 503 naming the stub whose
/// pattern spent the last of it (see ``StubEngine``), instead of an answer that could be wrong, since a stub
/// whose pattern could not finish might have been the one to answer.
///
/// `@unchecked Sendable`: a budget belongs to one request's matching, which runs on one thread; it is only
/// made `Sendable` to be a task-local value.
public final class MatchBudget: @unchecked Sendable {
    /// The steps a request's matching may take: 20 million, about twenty evaluations that each spend their
    /// own whole budget (some 200 ms on this project's 2-core machine), and a thousand times what matching a
    /// request against the shipped stubs takes.
    public static let defaultSteps = 20_000_000
    /// The steps one near-miss comparison may take (near misses run on a server thread): a twentieth of
    /// ``defaultSteps``, about 10 ms.
    static let nearMissSteps = defaultSteps / 20

    /// The budget of the matching in progress on this thread, if any.
    @TaskLocal public static var current: MatchBudget?

    /// Steps left; zero or less when the budget is spent.
    public private(set) var remaining: Int
    /// The stub whose request pattern is being evaluated, set by the stub index before each candidate.
    var candidate: UUID?
    /// The stub and the pattern that spent the last of the budget, once it is spent.
    public private(set) var spentBy: (stub: UUID?, pattern: String)?
    /// The text last parsed as JSON by a matcher, and what it parsed to (`nil`: not JSON): every `equalToJson`
    /// and `matchesJsonPath` of a request's candidate stubs reads the same body.
    private var parsedJSON: (text: String, value: JSONValue?)?

    /// Creates a budget of `steps` engine steps.
    public init(steps: Int = MatchBudget.defaultSteps) {
        remaining = steps
    }

    /// Whether the budget is spent.
    public var isSpent: Bool { spentBy != nil }

    /// Records `steps` taken by an evaluation of `pattern`; `stopped` says whether it was cut short for want
    /// of steps.
    func spend(_ steps: Int, pattern: String, stopped: Bool) {
        remaining -= steps
        if stopped, remaining <= 0, spentBy == nil { spentBy = (candidate, pattern) }
    }

    /// Records `steps` of work other than a regular expression (parsing an XML or multipart body, comparing
    /// XML trees: one step per byte or node) by the matcher `pattern`; when that spends the last of the budget,
    /// `pattern` is the one named.
    func charge(_ steps: Int, pattern: String) {
        remaining -= steps
        if remaining <= 0, spentBy == nil { spentBy = (candidate, pattern) }
    }

    /// `text` parsed as JSON for the matcher `pattern`, or `nil` when it is not JSON or the budget is spent.
    ///
    /// Under a ``current`` budget a text is parsed once per request, at one step per byte; without one (near
    /// misses, tests) it is parsed each time.
    static func json(of text: String, pattern: @autoclosure () -> String) -> JSONValue? {
        guard let budget = current else { return try? JSONValue.parse(text) }
        if let parsed = budget.parsedJSON, parsed.text == text { return parsed.value }
        if budget.isSpent { return nil }
        budget.charge(text.utf8.count, pattern: pattern())
        if budget.isSpent { return nil }
        let value = try? JSONValue.parse(text)
        budget.parsedJSON = (text, value)
        return value
    }

    /// Runs `body` with a new budget of `steps` as ``current``.
    ///
    /// - Returns: What `body` returns, and the budget after it.
    public static func measuring<T>(steps: Int = defaultSteps, _ body: () throws -> T) rethrows -> (T, MatchBudget) {
        let budget = MatchBudget(steps: steps)
        let result = try $current.withValue(budget) { try body() }
        return (result, budget)
    }
}
