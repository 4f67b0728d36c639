/// JSON equality with WireMock's `equalToJson` options.
///
/// WireMock compares with JsonUnit: `ignoreArrayOrder` turns on `IGNORING_ARRAY_ORDER`, and
/// `ignoreExtraElements` turns on both `IGNORING_EXTRA_FIELDS` and `IGNORING_EXTRA_ARRAY_ITEMS`, so the request
/// may have more object members and more array items than the stub expects.
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
    static func equal(
        expected: JSONValue, actual: JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool
    ) -> Bool {
        func equal(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
            JSONComparison.equal(
                expected: expected, actual: actual, ignoreArrayOrder: ignoreArrayOrder,
                ignoreExtraElements: ignoreExtraElements)
        }
        switch (expected, actual) {
        case (.object(let expectedMembers), .object(let actualMembers)):
            if !ignoreExtraElements && expectedMembers.count != actualMembers.count { return false }
            return expectedMembers.allSatisfy { key, value in
                guard let other = actualMembers[key] else { return false }
                return equal(value, other)
            }
        case (.array(let expectedItems), .array(let actualItems)):
            if ignoreExtraElements {
                guard actualItems.count >= expectedItems.count else { return false }
            } else {
                guard actualItems.count == expectedItems.count else { return false }
            }
            if !ignoreArrayOrder {
                return zip(expectedItems, actualItems).allSatisfy { equal($0, $1) }
            }
            return containsAll(expectedItems, in: actualItems, equal: equal)
        default:
            return expected.jsonEquals(actual)
        }
    }

    /// Whether every expected item can be paired with its own actual item: a bipartite matching, since with
    /// `ignoreExtraElements` one actual item may fit several expected ones and a greedy pairing can miss.
    private static func containsAll(
        _ expected: [JSONValue], in actual: [JSONValue], equal: (JSONValue, JSONValue) -> Bool
    ) -> Bool {
        // The common case first: each expected item takes the first free actual item it equals.
        var taken = [Bool](repeating: false, count: actual.count)
        var greedy = true
        for item in expected {
            guard let index = actual.indices.first(where: { !taken[$0] && equal(item, actual[$0]) }) else {
                greedy = false
                break
            }
            taken[index] = true
        }
        if greedy { return true }
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
}
