/// A map in the template model, with keys in insertion order (how WireMock's maps print and iterate).
///
/// The entries are kept in one array in that order, and a map of up to ``linearLimit`` keys (the model's root,
/// `request`, its query, headers and cookies, the variables of most templates) is searched by comparing keys,
/// without hashing them: a lookup that walks out through a loop's contexts asks several maps for a name each
/// time. A larger map keeps an index from key to position as well. The map is two references and a flag, so
/// that a ``TemplateValue`` holding one stays as small as before.
struct TemplateMap: Sendable {
    private struct Entry {
        /// The key as first set.
        let key: String
        /// The key as looked up: lower-cased when lookups ignore case, else ``key``.
        let lookupKey: String
        var value: TemplateValue
    }

    private var entries: [Entry] = []
    /// Each key's position, by its lookup key, once the map holds more than ``linearLimit`` keys.
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
        self.entries = entries.map { Entry(key: $0.key, lookupKey: $0.key, value: $0.value) }
        if entries.count > TemplateMap.linearLimit {
            for (position, entry) in entries.enumerated() { positions[entry.key] = position }
        }
    }

    /// How many keys the map holds.
    var count: Int { entries.count }

    /// The key at `position` (within ``count``), as first set.
    func key(at position: Int) -> String { entries[position].key }

    /// The value at `position` (within ``count``), in insertion order.
    func value(at position: Int) -> TemplateValue { entries[position].value }

    /// Sets `key` to `value`: a new key goes last, a key already there (ignoring case, when lookups do) keeps
    /// its place and its first spelling.
    mutating func set(_ key: String, _ value: TemplateValue) {
        let stored = caseInsensitive ? key.lowercased() : key
        if let position = position(of: stored) {
            entries[position].value = value
            return
        }
        entries.append(Entry(key: key, lookupKey: stored, value: value))
        if entries.count > TemplateMap.linearLimit {
            if positions.isEmpty {
                for (position, entry) in entries.enumerated() { positions[entry.lookupKey] = position }
            } else {
                positions[stored] = entries.count - 1
            }
        }
    }

    /// The value of `key` (ignoring case, when lookups do), or `nil`.
    func value(for key: String) -> TemplateValue? {
        position(of: caseInsensitive ? key.lowercased() : key).map { entries[$0].value }
    }

    /// The value a path segment names, its lower-cased form made once when the template was parsed.
    func value(for segment: TemplatePathSegment) -> TemplateValue? {
        position(of: caseInsensitive ? segment.folded : segment.name).map { entries[$0].value }
    }

    /// Where `stored` (a key as looked up) is, or `nil`.
    private func position(of stored: String) -> Int? {
        if entries.count > TemplateMap.linearLimit { return positions[stored] }
        for position in entries.indices where entries[position].lookupKey == stored { return position }
        return nil
    }
}
