/// JSON equality with WireMock's `equalToJson` options.
///
/// WireMock compares with JsonUnit: `ignoreArrayOrder` turns on `IGNORING_ARRAY_ORDER`, and
/// `ignoreExtraElements` turns on both `IGNORING_EXTRA_FIELDS` and `IGNORING_EXTRA_ARRAY_ITEMS`, so the request
/// may have more object members and more array items than the stub expects. Strings and keys compare by
/// Unicode scalars, never by canonical equivalence. The request's side is any ``JSONTreeNode``: a request body is
/// compared as a ``JSONDocument`` read in place, never built into a ``JSONValue``.
enum JSONComparison {
    /// Whether `actual` equals `expected`.
    ///
    /// - Parameters:
    ///   - expected: The stub's document.
    ///   - actual: The request's document.
    ///   - ignoreArrayOrder: Arrays compare as multisets.
    ///   - ignoreExtraElements: Objects in `actual` may have members `expected` lacks, and arrays may have more
    ///     items (after the expected ones, or anywhere with `ignoreArrayOrder`), at every depth.
    /// - Returns: Whether the documents are equal under the options; numbers compare by value (`1` equals `1.0`).
    ///   A comparison that needs more than ``comparisonBudget`` value comparisons gives up and answers `false`.
    static func equal<Actual: JSONTreeNode>(
        expected: JSONValue, actual: Actual, ignoreArrayOrder: Bool, ignoreExtraElements: Bool
    ) -> Bool {
        measured(
            expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder,
            ignoreExtraElements: ignoreExtraElements
        ).equal
    }

    /// ``equal(expected:actual:ignoreArrayOrder:ignoreExtraElements:)``, with the work it took.
    ///
    /// - Returns: Whether the documents are equal, and how many value comparisons the answer cost: more than
    ///   ``comparisonBudget`` when the comparison gave up. The count measures a comparison's work whatever the
    ///   machine's speed, so tests bound it instead of a time.
    static func measured<Actual: JSONTreeNode>(
        expected: JSONValue, actual: Actual, ignoreArrayOrder: Bool, ignoreExtraElements: Bool
    ) -> (equal: Bool, comparisons: Int) {
        let budget = Budget(remaining: comparisonBudget)
        let equal = equal(
            expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder,
            ignoreExtraElements: ignoreExtraElements, budget: budget)
        return (equal, comparisonBudget - budget.remaining)
    }

    /// The most value comparisons one `equalToJson` test makes. Comparing in order costs one per value, so
    /// this is far more than any PokeAPI body needs (the largest shipped one has 22,445 values); pairing
    /// arrays without order costs up to one per pair of items, which for two arrays of 20,000 objects would be
    /// 400 million comparisons and as many bytes of table (arrays of plain values pair by counting instead).
    static let comparisonBudget = 4_000_000

    /// What is left of ``comparisonBudget`` during one comparison.
    private final class Budget {
        var remaining: Int
        init(remaining: Int) { self.remaining = remaining }
    }

    private static func equal<Actual: JSONTreeNode>(
        expected: JSONValue, actual: Actual, ignoreArrayOrder: Bool, ignoreExtraElements: Bool, budget: Budget
    ) -> Bool {
        budget.remaining -= 1
        guard budget.remaining >= 0 else { return false }
        func equal(_ expected: JSONValue, _ actual: Actual) -> Bool {
            JSONComparison.equal(
                expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder,
                ignoreExtraElements: ignoreExtraElements, budget: budget)
        }
        switch (expected, actual.kind) {
        case (.object(let expectedMembers), .object):
            if !ignoreExtraElements && expectedMembers.count != actual.count { return false }
            return expectedMembers.allSatisfy { key, value in
                // Keys compare by scalars too: the member found must be spelt as the key is.
                guard let member = actual.member(withUTF8: key) else { return false }
                return equal(value, member)
            }
        case (.array(let expectedItems), .array):
            let actualCount = actual.count
            if ignoreExtraElements {
                guard actualCount >= expectedItems.count else { return false }
            } else {
                guard actualCount == expectedItems.count else { return false }
            }
            let actualItems = actual.elements
            if !ignoreArrayOrder {
                return zip(expectedItems, actualItems).allSatisfy { equal($0, $1) }
            }
            return containsAll(expectedItems, in: actualItems, budget: budget, equal: equal)
        case (.string(let expectedText), .string):
            return actual.isString(sameUTF8As: expectedText)
        default:
            guard let scalar = actual.scalar else { return false }
            return expected.jsonEquals(scalar)
        }
    }

    /// Whether every expected item can be paired with its own actual item: a bipartite matching, since with
    /// `ignoreExtraElements` one actual item may fit several expected ones and a greedy pairing can miss.
    private static func containsAll<Actual: JSONTreeNode>(
        _ expected: [JSONValue], in actual: [Actual], budget: Budget, equal: (JSONValue, Actual) -> Bool
    ) -> Bool {
        // Plain values equal exactly when their keys do: compare how many of each there are.
        if let expectedKeys = scalarKeys(expected), let actualKeys = scalarKeys(actual) {
            budget.remaining -= expected.count + actual.count
            guard budget.remaining >= 0 else { return false }
            var available: [ScalarKey: Int] = [:]
            for key in actualKeys { available[key, default: 0] += 1 }
            for key in expectedKeys {
                guard let count = available[key], count > 0 else { return false }
                available[key] = count - 1
            }
            return true
        }
        // The common case first: each expected item takes the first free actual item it equals.
        var taken = [Bool](repeating: false, count: actual.count)
        var greedy = true
        var firstFree = 0  // items in the same order pair in one pass, not by rescanning the taken ones
        for item in expected {
            while firstFree < actual.count && taken[firstFree] { firstFree += 1 }
            guard let index = actual.indices[firstFree...].first(where: { !taken[$0] && equal(item, actual[$0]) })
            else {
                greedy = false
                break
            }
            taken[index] = true
        }
        if greedy { return true }
        // The table compares every expected item with every actual one: refuse it when the budget cannot pay.
        guard budget.remaining >= 0, expected.count * actual.count <= budget.remaining else {
            budget.remaining = -1
            return false
        }
        // Kuhn's augmenting paths over the table of which items fit which.
        let fits = expected.map { item in actual.map { equal(item, $0) } }
        guard fits.allSatisfy({ $0.contains(true) }) else { return false }
        var owner = [Int?](repeating: nil, count: actual.count)
        func assign(_ expectedIndex: Int, _ visited: inout [Bool]) -> Bool {
            for actualIndex in actual.indices where fits[expectedIndex][actualIndex] && !visited[actualIndex] {
                visited[actualIndex] = true
                if owner[actualIndex] == nil || assign(owner[actualIndex]!, &visited) {
                    owner[actualIndex] = expectedIndex
                    return true
                }
            }
            return false
        }
        for expectedIndex in expected.indices {
            var visited = [Bool](repeating: false, count: actual.count)
            if !assign(expectedIndex, &visited) { return false }
        }
        return true
    }

    /// A plain value's identity under JSON equality.
    private enum ScalarKey: Hashable {
        case null
        case bool(Bool)
        case number(Double)
        /// UTF-8 bytes: strings are equal by Unicode scalars, not by canonical equivalence.
        case string([UInt8])
    }

    /// The keys of items that are all plain values whose equality the key decides exactly, else `nil`: an
    /// integer beyond 2^53 has no exact `Double`, and `jsonEquals` compares it with a `Double` after rounding.
    private static func scalarKeys<Item: JSONTreeNode>(_ items: [Item]) -> [ScalarKey]? {
        var keys: [ScalarKey] = []
        keys.reserveCapacity(items.count)
        for item in items {
            switch item.kind {
            case .null: keys.append(.null)
            case .bool: keys.append(.bool(item.scalar == .bool(true)))
            case .string: keys.append(.string(item.stringUTF8 ?? []))
            case .number:
                switch item.number {
                case .double(let value)?: keys.append(.number(value))
                case .integer(let value)?:
                    guard let exact = Double(exactly: value) else { return nil }
                    keys.append(.number(exact))
                default: return nil
                }
            case .array, .object: return nil
            }
        }
        return keys
    }
}
