/// How many recorded stubs are new, unchanged and changed compared with what was on disk: what
/// `POST /__admin/recordings/stop` returns, and what pokestub logs when it stops in a record mode.
package struct RecordingReport: Sendable, Hashable, CustomStringConvertible {
    /// Stubs whose mapping file did not exist.
    package var new: Int
    /// Stubs whose files already held the same bytes.
    package var unchanged: Int
    /// Stubs whose files held different bytes (the upstream changed).
    package var changed: Int

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - new: New stubs.
    ///   - unchanged: Unchanged stubs.
    ///   - changed: Changed stubs.
    package init(new: Int = 0, unchanged: Int = 0, changed: Int = 0) {
        self.new = new
        self.unchanged = unchanged
        self.changed = changed
    }

    /// The number of distinct stubs recorded.
    package var total: Int { new + unchanged + changed }

    /// `{"new": 3, "unchanged": 10, "changed": 1, "total": 14}`.
    package var json: JSONValue {
        .object([
            "new": .integer(Int64(new)), "unchanged": .integer(Int64(unchanged)),
            "changed": .integer(Int64(changed)), "total": .integer(Int64(total)),
        ])
    }

    package var description: String { "\(new) new, \(unchanged) unchanged, \(changed) changed" }
}
