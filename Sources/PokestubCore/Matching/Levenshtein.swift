/// Edit distance between strings, the measure WireMock uses to rank near misses.
enum Levenshtein {
    /// The edit distance divided by the longer length: 0 for equal strings, 1 for nothing in common.
    ///
    /// Works on UTF-8 bytes, so strings that differ only in Unicode scalars (a decomposed `é` against a
    /// precomposed one) are apart, and gives up beyond 2,048 bytes (returns 1 unless equal) to stay cheap.
    /// Within a ``Budget`` (``withBudget(cells:_:)``), each comparison first takes its table's cells from it,
    /// and once it cannot, the strings count as nothing in common (1).
    static func normalizedDistance(_ lhs: String, _ rhs: String) -> Double {
        if lhs.hasSameUTF8(as: rhs) { return 0 }
        let (lhsCount, rhsCount) = (lhs.utf8.count, rhs.utf8.count)
        let longest = max(lhsCount, rhsCount)
        guard longest > 0 else { return 0 }
        guard longest <= 2_048 else { return 1 }
        if let budget = Levenshtein.budget {
            // Past the search's budget, strings that differ count as nothing in common.
            guard budget.remaining >= lhsCount * rhsCount else { return 1 }
            budget.remaining -= lhsCount * rhsCount
        }
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        let distance = a.isEmpty ? b.count : previous[b.count]
        return Double(distance) / Double(longest)
    }

    /// The cells of distance tables one near-miss search may fill, across every candidate stub: 4 million,
    /// about 15 ms in a release build. A 404 for a path of 200 invalid UTF-8 bytes (each `%FF` once
    /// normalised) compared it with hundreds of shipped stubs: 110 to 160 ms of a server thread in a release
    /// build on the loaded 2-core machine (0.3 to 0.8 s instrumented), and a client varying the path defeats
    /// the near-miss cache. With this budget (and `URINormalForm` no longer hashing each byte) it takes 27 ms;
    /// a plain 404 for a shipped route takes well under a million cells.
    static let cellsPerSearch = 4_000_000

    /// The table cells a search has left. `@unchecked Sendable`: one search runs on one thread; it is only
    /// `Sendable` to be a task-local value.
    final class Budget: @unchecked Sendable {
        /// Cells left.
        var remaining: Int

        init(cells: Int) { remaining = cells }
    }

    /// The budget of the search in progress on this thread, if any.
    @TaskLocal static var budget: Budget?

    /// Runs `body` with a budget of `cells` as ``budget``, unless a budget is already in force (an outer
    /// search's, which then covers this one too).
    static func withBudget<T>(cells: Int = cellsPerSearch, _ body: () -> T) -> T {
        guard budget == nil else { return body() }
        return $budget.withValue(Budget(cells: cells)) { body() }
    }
}
