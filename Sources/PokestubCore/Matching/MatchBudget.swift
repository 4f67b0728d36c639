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
/// `@unchecked Sendable`: a budget belongs to one request's matching, which runs on one thread.
package final class MatchBudget: @unchecked Sendable {
    /// The steps a request's matching may take: 20 million, about twenty evaluations that each spend their
    /// own whole budget (some 200 ms on this project's 2-core machine), and a thousand times what matching a
    /// request against the shipped stubs takes.
    package static let defaultSteps = 20_000_000
    /// The steps one near-miss comparison may take (near misses run on a server thread): a twentieth of
    /// ``defaultSteps``, about 10 ms.
    static let nearMissSteps = defaultSteps / 20

    /// The budget of the matching in progress on this thread, if any.
    ///
    /// Matching is synchronous (``with(_:_:)`` takes a synchronous body), so the budget is the thread's, kept in
    /// a thread-specific slot: a task-local value cost an allocation and some 500 instructions a request.
    package static var current: MatchBudget? {
        guard let pointer = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<MatchBudget>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The slot of ``current`` (pthread_key_create(3)); it holds no reference: ``with(_:_:)`` keeps the budget
    /// alive while it is there.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        precondition(result == 0, "pthread_key_create failed with \(result)")
        return key
    }()

    /// Steps left; zero or less when the budget is spent.
    package private(set) var remaining: Int
    /// The stub whose request pattern is being evaluated, set by the stub index before each candidate.
    var candidate: UUID?
    /// The stub and the pattern that spent the last of the budget, once it is spent.
    package private(set) var spentBy: (stub: UUID?, pattern: String)?
    /// The text last parsed as JSON by a matcher, read in place (``JSONDocument``): every `equalToJson` and
    /// `matchesJsonPath` of a request's candidate stubs reads the same body.
    private var parsedJSON: ParsedJSON?
    /// The memory parsed bodies are charged to, if any (the engine's ``MemoryBudget``).
    let memory: MemoryBudget?
    /// Why a body could not be parsed within ``memory``, once that happened: the request is answered 507
    /// (``MemoryBudget/refusal``).
    package private(set) var memoryRefusal: String?

    /// A text parsed as JSON: the document (`nil`: not JSON, then the text's hash and size identify it) and the
    /// memory charged for it, held until the budget goes.
    private struct ParsedJSON {
        var document: JSONDocument?
        var hash: Int
        var bytes: Int
        var charge: MemoryCharge?

        func isParse(of text: String) -> Bool {
            if let document { return document.hasSource(text) }
            return text.utf8.count == bytes && text.hashValue == hash
        }
    }

    /// Runs `body` with `bytes` charged to the current budget's ``memory`` for `what` (an XML body's parse, say),
    /// given back when it returns; `nil` without running it when the memory budget cannot hold them, with
    /// ``memoryRefusal`` saying why (the request is then answered 507). Without a current budget or memory it
    /// runs `body` uncharged.
    static func withMemory<T>(_ bytes: Int, for what: @autoclosure () -> String, _ body: () -> T?) -> T? {
        guard let budget = current, let memory = budget.memory else { return body() }
        if budget.memoryRefusal != nil { return nil }
        guard let charge = memory.charge(bytes, for: .parsedBody) else {
            budget.memoryRefusal = "\(what()) needs \(bytes) bytes, but \(memory.refusal)"
            return nil
        }
        defer { charge.release() }
        return body()
    }

    /// Creates a budget of `steps` engine steps.
    ///
    /// - Parameters:
    ///   - steps: The engine steps matching may take.
    ///   - memory: The budget each body parsed as JSON is charged to
    ///     (``JSONDocument/costBound(sourceBytes:)``) for as long as this budget lives.
    package init(steps: Int = MatchBudget.defaultSteps, memory: MemoryBudget? = nil) {
        remaining = steps
        self.memory = memory
    }

    /// Whether the budget is spent.
    package var isSpent: Bool { spentBy != nil }

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

    /// `text` parsed as JSON for the matcher `pattern`, read in place, or `nil` when it is not JSON, the budget
    /// is spent or the memory budget cannot hold it.
    ///
    /// Under a ``current`` budget a text is parsed once per request, at one step per byte, and its document is
    /// charged to ``memory`` (``JSONDocument/costBound(sourceBytes:)``) until the budget goes; when that charge is
    /// refused, ``memoryRefusal`` says why and no body is parsed again. Without a budget (near misses, tests) it
    /// is parsed each time.
    static func json(of text: String, pattern: @autoclosure () -> String) -> JSONDocument.Node? {
        guard let budget = current else { return (try? JSONDocument.parse(text))?.root }
        if let parsed = budget.parsedJSON, parsed.isParse(of: text) { return parsed.document?.root }
        if budget.isSpent || budget.memoryRefusal != nil { return nil }
        budget.charge(text.utf8.count, pattern: pattern())
        if budget.isSpent { return nil }
        // The previous document's memory goes first: one body's at a time.
        budget.parsedJSON = nil
        var charge: MemoryCharge?
        if let memory = budget.memory {
            charge = memory.charge(JSONDocument.costBound(sourceBytes: text.utf8.count), for: .parsedBody)
            guard charge != nil else {
                budget.memoryRefusal =
                    "parsing the request body (\(text.utf8.count) bytes) as JSON for \(pattern()) needs "
                    + "\(JSONDocument.costBound(sourceBytes: text.utf8.count)) bytes, but \(memory.refusal)"
                return nil
            }
        }
        let document = try? JSONDocument.parse(text)
        budget.parsedJSON = ParsedJSON(
            document: document, hash: document == nil ? text.hashValue : 0, bytes: text.utf8.count,
            charge: document == nil ? nil : charge)
        return document?.root
    }

    /// The answer for a request whose body the memory budget could not hold parsed (``memoryRefusal``), or
    /// `nil`: 507 (RFC 4918 §11.5), as for a runtime stub past the budget.
    ///
    /// ```json
    /// {"status": 507, "error": "memory budget exceeded", "message": "parsing the request body (7340032 bytes) …"}
    /// ```
    package var memoryRefusalResponse: HTTPResponse? {
        memoryRefusal.map { reason in
            .json(
                .object([
                    "status": .integer(507), "error": .string("memory budget exceeded"), "message": .string(reason),
                ]), status: 507)
        }
    }

    /// Runs `body` with a new budget of `steps` as ``current``, charging the bodies it parses to `memory`.
    ///
    /// - Returns: What `body` returns, and the budget after it.
    package static func measuring<T>(
        steps: Int = defaultSteps, memory: MemoryBudget? = nil, _ body: () throws -> T
    ) rethrows -> (T, MatchBudget) {
        let budget = MatchBudget(steps: steps, memory: memory)
        let result = try with(budget, body)
        return (result, budget)
    }

    /// Runs `body` with `budget` as ``current`` on this thread, and the previous one (or none) after it.
    package static func with<T>(_ budget: MatchBudget, _ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(threadKey)
        pthread_setspecific(threadKey, Unmanaged.passUnretained(budget).toOpaque())
        defer { pthread_setspecific(threadKey, previous) }
        return try withExtendedLifetime(budget) { try body() }
    }
}
