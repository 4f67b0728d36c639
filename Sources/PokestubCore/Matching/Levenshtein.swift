/// Edit distance between strings, the measure WireMock uses to rank near misses.
enum Levenshtein {
    /// The edit distance divided by the longer length: 0 for equal strings, 1 for nothing in common.
    ///
    /// Works on UTF-8 bytes, so strings that differ only in Unicode scalars (a decomposed `é` against a
    /// precomposed one) are apart, and gives up beyond 2,048 bytes (returns 1 unless equal) to stay cheap.
    static func normalizedDistance(_ lhs: String, _ rhs: String) -> Double {
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        let longest = max(a.count, b.count)
        guard longest > 0 else { return 0 }
        guard longest <= 2_048 else { return 1 }
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
}
