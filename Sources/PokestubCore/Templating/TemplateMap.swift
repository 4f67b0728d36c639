/// A map in the template model, with keys in insertion order (how WireMock's maps print and iterate).
///
/// Keys and values are kept in two arrays in that order, and a map of up to ``linearLimit`` keys (the model's
/// root, `request`, its query, headers and cookies, the variables of most templates) is searched by comparing
/// keys, without hashing them: a lookup that walks out through a loop's contexts asks several maps for a name
/// each time. A larger map keeps an index from key to position as well.
struct TemplateMap: Sendable {
    /// The keys as first set, in insertion order.
    private(set) var keys: [String] = []
    /// The values, in the order of ``keys``.
    private var values: [TemplateValue] = []
    /// The keys as looked up, for a map whose lookups ignore case: lower-cased, in the order of ``keys``.
    private var foldedKeys: [String] = []
    /// Each key's position, as looked up, once the map holds more than ``linearLimit`` keys.
    private var positions: [String: Int] = [:]
    /// Whether lookups ignore case (request headers, as in WireMock).
    let caseInsensitive: Bool

    /// The most keys a map is searched through without an index.
    static let linearLimit = 32

    init(caseInsensitive: Bool = false) {
        self.caseInsensitive = caseInsensitive
    }

    /// A map of `entries`, in their order, whose keys are known to differ (the model's fixed maps): they are
    /// not compared with each other as ``set(_:_:)`` would.
    init(distinctKeys entries: [(key: String, value: TemplateValue)]) {
        self.init()
        keys = entries.map(\.key)
        values = entries.map(\.value)
        if keys.count > TemplateMap.linearLimit {
            for (position, key) in keys.enumerated() { positions[key] = position }
        }
    }

    /// How many keys the map holds.
    var count: Int { keys.count }

    /// Sets `key` to `value`: a new key goes last, a key already there (ignoring case, when lookups do) keeps
    /// its place and its first spelling.
    mutating func set(_ key: String, _ value: TemplateValue) {
        let stored = caseInsensitive ? key.lowercased() : key
        if let position = position(of: stored) {
            values[position] = value
            return
        }
        keys.append(key)
        values.append(value)
        if caseInsensitive { foldedKeys.append(stored) }
        if keys.count > TemplateMap.linearLimit {
            if positions.isEmpty {
                for (position, known) in (caseInsensitive ? foldedKeys : keys).enumerated() {
                    positions[known] = position
                }
            } else {
                positions[stored] = keys.count - 1
            }
        }
    }

    /// The value of `key` (ignoring case, when lookups do), or `nil`.
    func value(for key: String) -> TemplateValue? {
        position(of: caseInsensitive ? key.lowercased() : key).map { values[$0] }
    }

    /// The value a path segment names, its lower-cased form made once when the template was parsed.
    func value(for segment: TemplatePathSegment) -> TemplateValue? {
        position(of: caseInsensitive ? segment.folded : segment.name).map { values[$0] }
    }

    /// The value at `position` (within ``count``), in insertion order.
    func value(at position: Int) -> TemplateValue { values[position] }

    /// Where `stored` (a key as looked up) is, or `nil`.
    private func position(of stored: String) -> Int? {
        if keys.count > TemplateMap.linearLimit { return positions[stored] }
        return (caseInsensitive ? foldedKeys : keys).firstIndex(of: stored)
    }
}
