import Foundation

extension RequestJournal {
    /// The events that pass every given filter, newest first, and how many events the journal held, from one
    /// look at the journal.
    ///
    /// - Parameters:
    ///   - since: Only events received at or after this time.
    ///   - unmatchedOnly: Only events no stub answered.
    ///   - stubID: Only events the stub with this id answered.
    ///   - limit: At most this many (the newest).
    /// - Returns: The events and the journal's total before filtering.
    func newestFirst(
        since: Date? = nil, unmatchedOnly: Bool = false, servedBy stubID: UUID? = nil, limit: Int? = nil
    ) -> (events: [ServeEvent], total: Int) {
        // Filtered on the records; only the requests listed are parsed again.
        var records = self.records
        let total = records.count
        if let since { records = records.filter { $0.receivedAt >= since } }
        if unmatchedOnly { records = records.filter { !$0.wasMatched } }
        if let stubID { records = records.filter { $0.stub?.id == stubID } }
        var newestFirst = Array(records.reversed())
        if let limit { newestFirst = Array(newestFirst.prefix(limit)) }
        return (newestFirst.map(\.event), total)
    }

    /// The events whose request matches `pattern`, oldest first.
    func events(matching pattern: RequestPattern) -> [ServeEvent] {
        events.filter { pattern.matches($0.request) }
    }

    /// Removes the events whose request matches `pattern`.
    ///
    /// - Returns: The removed events, oldest first.
    func removeAll(matching pattern: RequestPattern) -> [ServeEvent] {
        let removed = events(matching: pattern)
        let ids = Set(removed.map(\.id))
        removeAll { ids.contains($0.id) }
        return removed
    }

    /// The most recent `limit` events no stub answered (all of them without a limit), oldest first.
    func recentUnmatched(limit: Int?) -> [ServeEvent] {
        let records = self.records
        guard let limit else { return records.filter { !$0.wasMatched }.map(\.event) }
        return Array(records.reversed().lazy.filter { !$0.wasMatched }.prefix(limit).reversed()).map(\.event)
    }

    /// The `limit` events whose request comes closest to `pattern` without matching it, closest first.
    func nearMisses(to pattern: RequestPattern, limit: Int) -> [(event: ServeEvent, result: MatchResult)] {
        events
            .map { (event: $0, result: pattern.evaluate($0.request)) }
            .filter { !$0.result.isMatch }
            .sorted { $0.result.distance < $1.result.distance }
            .prefix(limit)
            .map { $0 }
    }
}
