import Foundation

/// What was recorded over a span of time (one recording run, a snapshot, or the daemon's life), and how
/// each mapping file compared with the disk at the start of that span.
struct RecordingLedger: Sendable {
    /// Mapping path to the fingerprint on disk before the first write in this span (`nil`: absent).
    private var original: [String: UInt64?] = [:]
    private var latest: [String: UInt64] = [:]
    /// Mapping path to the bytes of its latest stub and the stub's id: parsed into the mapping only when the
    /// mappings are asked for (``orderedMappings``), since parsing a recording with a large body on every
    /// note would repeat work the answer does not need.
    private var mappings: [String: (source: StubDefinitionSource, id: UUID)] = [:]
    private var order: [String] = []

    /// Notes one recording.
    ///
    /// - Parameter recorded: The recording, with its mapping path and fingerprints.
    mutating func note(_ recorded: RecordedStub) {
        if original[recorded.path] == nil {
            original[recorded.path] = .some(recorded.original)
            order.append(recorded.path)
        }
        latest[recorded.path] = recorded.latest
        mappings[recorded.path] = (recorded.stub.definitionSource, recorded.stub.id)
    }

    /// New, unchanged and changed mapping files over the span.
    var report: RecordingReport {
        var report = RecordingReport()
        for path in order {
            switch original[path] ?? nil {
            case nil: report.new += 1
            case let before? where before == latest[path]: report.unchanged += 1
            default: report.changed += 1
            }
        }
        return report
    }

    /// The mappings recorded, in the order first recorded.
    var orderedMappings: [JSONValue] { order.compactMap { mappings[$0].map { $0.source.mapping(id: $0.id) } } }
}
