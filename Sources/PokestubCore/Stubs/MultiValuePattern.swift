/// A test on all the values of a query parameter or header field: WireMock's multi-value patterns.
///
/// In JSON it is either a string value pattern (``StringValuePattern``), which passes when any one value
/// passes, or when there is none and absence passes (WireMock 2.35's only form): `{"equalTo": "20"}`; or one of
/// WireMock 3's multi-value matchers (WireMock 3 docs, "Request Matching", "Multi-value matching"), which test
/// the values together:
///
/// - `{"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}`: there are exactly as many values as patterns, and
///   each value can be paired with a different pattern that passes it, in any order. `?id=2&id=1` passes;
///   `?id=1`, `?id=1&id=3` and `?id=1&id=2&id=2` do not. WireMock 3 only asks that each pattern pass some value
///   and that the counts agree, which lets `[equalTo "1", equalTo "1"]` pass `?id=1&id=2`; pokestub pairs them,
///   so a recording matches exactly the multiset of values it recorded.
/// - `{"includes": [{"equalTo": "1"}, {"matches": "[0-9]+"}]}`: each pattern passes some value (the same value
///   may serve several patterns, as in WireMock 3); other values may be present.
///
/// An absent parameter has no values, so neither multi-value matcher passes it.
package enum MultiValuePattern: Sendable, Hashable {
    /// Any value passes, or, with no value, absence passes.
    case single(StringValuePattern)
    /// The values pair one to one with the patterns, each value passing its pattern.
    case hasExactly([StringValuePattern])
    /// Each pattern passes at least one value.
    case includes([StringValuePattern])

    /// The multi-value operator names the loader accepts.
    package static let operators = ["hasExactly", "includes"]

    /// Whether the values of the fields named `name` pass.
    ///
    /// A string value pattern walks the fields in place, as this runs for every candidate stub of every request;
    /// the multi-value matchers collect the values first.
    ///
    /// - Parameters:
    ///   - fields: The request's query parameters or header fields, in order.
    ///   - name: The parameter or field name.
    ///   - exactName: Whether names compare exactly (query parameters) or case-insensitively (header fields,
    ///     RFC 9110 §5.1).
    func matches(_ fields: [(name: String, value: String)], named name: String, exactName: Bool) -> Bool {
        func named(_ field: (name: String, value: String)) -> Bool {
            exactName ? field.name.hasSameUTF8(as: name) : field.name.caseInsensitiveEquals(name)
        }
        switch self {
        case .single(let pattern):
            var present = false
            for field in fields where named(field) {
                present = true
                if pattern.matches(field.value) { return true }
            }
            return present ? false : pattern.matches(nil)
        case .hasExactly, .includes:
            var values: [String] = []
            for field in fields where named(field) { values.append(field.value) }
            return matches(values)
        }
    }

    /// Whether the values pass.
    ///
    /// - Parameter values: The parameter's or field's values in request order; empty when it is absent.
    package func matches(_ values: [String]) -> Bool {
        switch self {
        case .single(let pattern):
            return values.isEmpty ? pattern.matches(nil) : values.contains { pattern.matches($0) }
        case .hasExactly(let patterns):
            return values.count == patterns.count
                && MultiValuePattern.pairCount(values, patterns) == patterns.count
        case .includes(let patterns):
            return patterns.allSatisfy { pattern in values.contains { pattern.matches($0) } }
        }
    }

    /// How far the values are from passing, from 0 (they pass) to 1, for near misses.
    ///
    /// A string value pattern is as close as its closest value; `hasExactly` is the share of values and
    /// patterns left unpaired; `includes` is the mean, over its patterns, of the closest value's distance.
    package func distance(_ values: [String]) -> Double {
        switch self {
        case .single(let pattern):
            return values.isEmpty ? pattern.distance(nil) : values.map { pattern.distance($0) }.min() ?? 1
        case .hasExactly(let patterns):
            let most = max(values.count, patterns.count)
            guard most > 0 else { return 0 }
            return 1 - Double(MultiValuePattern.pairCount(values, patterns)) / Double(most)
        case .includes(let patterns):
            guard !values.isEmpty else { return 1 }
            let total = patterns.reduce(0.0) { sum, pattern in
                sum + (values.map { pattern.distance($0) }.min() ?? 1)
            }
            return patterns.isEmpty ? 0 : total / Double(patterns.count)
        }
    }

    /// What the pattern expects, in words, for near-miss reports: `equalTo "20"`,
    /// `hasExactly(equalTo "1", equalTo "2")`.
    package var summary: String {
        switch self {
        case .single(let pattern): pattern.summary
        case .hasExactly(let patterns): "hasExactly(" + patterns.map(\.summary).joined(separator: ", ") + ")"
        case .includes(let patterns): "includes(" + patterns.map(\.summary).joined(separator: ", ") + ")"
        }
    }

    /// The most pairs of a value and a pattern that passes it, each value and each pattern in at most one pair.
    ///
    /// Case-sensitive `equalTo` patterns pair first, by comparing the sorted texts with the sorted values (by
    /// UTF-8 bytes): such a pattern passes only values equal to its text, and equal values are interchangeable,
    /// so some largest pairing gives each of them an equal value when there is one. The values left and the other
    /// patterns then pair by Hopcroft and Karp's augmenting paths ("An n^5/2 algorithm for maximum matchings in
    /// bipartite graphs", 1973): each pattern is evaluated once per value left, and the pairing takes
    /// O(E √V) steps, so recorded values cost O(n log n) and other patterns no more than testing each pattern
    /// on each value.
    static func pairCount(_ values: [String], _ patterns: [StringValuePattern]) -> Int {
        var texts: [String] = []
        var others: [StringValuePattern] = []
        for pattern in patterns {
            if case .equalTo(let text, caseInsensitive: false) = pattern {
                texts.append(text)
            } else {
                others.append(pattern)
            }
        }
        func precedes(_ lhs: String, _ rhs: String) -> Bool { lhs.utf8.lexicographicallyPrecedes(rhs.utf8) }
        texts.sort(by: precedes)
        let sortedValues = values.sorted(by: precedes)
        var pairs = 0
        var left: [String] = []
        var next = 0
        for value in sortedValues {
            while next < texts.count, precedes(texts[next], value) { next += 1 }
            if next < texts.count, texts[next].hasSameUTF8(as: value) {
                pairs += 1
                next += 1
            } else {
                left.append(value)
            }
        }
        guard !others.isEmpty, !left.isEmpty else { return pairs }
        let passed = others.map { pattern in left.indices.filter { pattern.matches(left[$0]) } }
        return pairs + MultiValuePattern.maximumMatching(passed, valueCount: left.count)
    }

    /// The size of a maximum matching in a bipartite graph, by Hopcroft and Karp's algorithm.
    ///
    /// - Parameters:
    ///   - edges: For each pattern, the values (by index) it passes.
    ///   - valueCount: The number of values.
    static func maximumMatching(_ edges: [[Int]], valueCount: Int) -> Int {
        var patternOfValue = [Int](repeating: -1, count: valueCount)
        var valueOfPattern = [Int](repeating: -1, count: edges.count)
        var layer = [Int](repeating: -1, count: edges.count)
        var size = 0
        // Depth first from a free pattern along the layers to a free value, then pairs along the path. With a
        // stack of its own rather than recursion: a path may be as long as there are values.
        func augment(from start: Int) -> Bool {
            var path: [(pattern: Int, edge: Int)] = [(start, 0)]
            while let (pattern, edge) = path.last {
                guard edge < edges[pattern].count else {
                    layer[pattern] = -1  // no way on from here in this phase
                    path.removeLast()
                    if !path.isEmpty { path[path.count - 1].edge += 1 }
                    continue
                }
                let holder = patternOfValue[edges[pattern][edge]]
                if holder < 0 {
                    for step in path {
                        let value = edges[step.pattern][step.edge]
                        patternOfValue[value] = step.pattern
                        valueOfPattern[step.pattern] = value
                    }
                    return true
                }
                if layer[holder] == layer[pattern] + 1 {
                    path.append((holder, 0))
                } else {
                    path[path.count - 1].edge += 1
                }
            }
            return false
        }
        while true {
            // Breadth first from the free patterns: the layers of the shortest alternating paths.
            var queue: [Int] = []
            for pattern in edges.indices {
                layer[pattern] = valueOfPattern[pattern] < 0 ? 0 : -1
                if valueOfPattern[pattern] < 0 { queue.append(pattern) }
            }
            // Only up to the first layer that reaches a free value: each phase pairs along shortest paths.
            var freeLayer = Int.max
            var head = 0
            while head < queue.count, layer[queue[head]] <= freeLayer {
                let pattern = queue[head]
                head += 1
                for value in edges[pattern] {
                    let holder = patternOfValue[value]
                    if holder < 0 {
                        freeLayer = layer[pattern]
                    } else if layer[holder] < 0 {
                        layer[holder] = layer[pattern] + 1
                        queue.append(holder)
                    }
                }
            }
            guard freeLayer < Int.max else { return size }
            for pattern in queue where layer[pattern] > freeLayer { layer[pattern] = -1 }
            for pattern in edges.indices where valueOfPattern[pattern] < 0 && augment(from: pattern) { size += 1 }
        }
    }
}

// MARK: - Reading and writing the JSON form

extension MultiValuePattern {
    /// Reads a pattern from its JSON form: `{"hasExactly": [...]}`, `{"includes": [...]}`, or a string value
    /// pattern.
    ///
    /// - Throws: ``StubDefinitionError`` for a multi-value matcher that is not a non-empty array of string value
    ///   patterns or has other fields, and whatever ``StringValuePattern/init(json:)`` throws.
    package init(json: JSONValue) throws(StubDefinitionError) {
        guard case .object(let members) = json,
            let name = MultiValuePattern.operators.first(where: { members[$0] != nil })
        else {
            self = .single(try StringValuePattern(json: json))
            return
        }
        let present = (MultiValuePattern.operators + StringValuePattern.operators).filter { members[$0] != nil }
        guard present.count == 1 else {
            throw StubDefinitionError("a pattern takes exactly one of \(present.joined(separator: ", "))")
        }
        var object = try StrictObject(json, what: "a value pattern")
        let patterns = try StringValuePattern.patterns(object.take(name), under: name)
        try object.rejectUnknown(supported: [name])
        self = name == "hasExactly" ? .hasExactly(patterns) : .includes(patterns)
    }

    /// The JSON form, as WireMock writes it.
    package var json: JSONValue {
        switch self {
        case .single(let pattern): pattern.json
        case .hasExactly(let patterns): .object(["hasExactly": .array(patterns.map(\.json))])
        case .includes(let patterns): .object(["includes": .array(patterns.map(\.json))])
        }
    }
}
