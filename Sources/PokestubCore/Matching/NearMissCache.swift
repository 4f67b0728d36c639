import Foundation
import Synchronization

/// Remembers the 404 text of recent unmatched requests, so a client that repeats the same miss (a retry
/// loop, a poll) costs a dictionary lookup instead of a comparison with every nearby stub.
///
/// Entries belong to one stub set: when the ``StubIndex`` changes, the cache starts over. At most
/// `capacity` entries and ``maxReportBytes`` of report text are kept; when full it starts over too (misses
/// are rare, repeats are common). Requests are told apart by a digest of their body, not the body itself:
/// keeping bodies here made 500 misses of 4 MB each hold 2 GB with the journal off.
public final class NearMissCache: Sendable {
    private let capacity: Int
    private let state = Mutex(State())

    private struct State {
        /// The stub set the reports belong to; weak, so a replaced set is freed at once.
        weak var index: StubIndex?
        var reports: [Key: String] = [:]
        var reportBytes = 0
    }

    private struct Key: Hashable {
        var method: String
        var rawURL: String
        var headers: HTTPHeaders
        var body: ContentDigest
    }

    /// The most report text kept, in UTF-8 bytes (a report repeats the closest stubs' patterns, which can be
    /// large); a report longer than a sixteenth of it is not kept at all.
    public let maxReportBytes = 8 << 20

    /// Creates a cache.
    ///
    /// - Parameter capacity: The most reports kept (default 512).
    public init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// The plain-text near-miss report for an unmatched request (``NearMiss/report(for:nearMisses:)``).
    public func report(for request: HTTPRequest, in index: StubIndex) -> String {
        let key = Key(
            method: request.method, rawURL: request.rawURL, headers: request.headers,
            body: ContentDigest(request.body))
        if let cached = state.withLock({ $0.index === index ? $0.reports[key] : nil }) {
            return cached
        }
        let report = NearMiss.report(for: request, nearMisses: NearMiss.closest(to: request, in: index))
        let size = report.utf8.count
        guard size <= maxReportBytes / 16 else { return report }
        state.withLock { state in
            if state.index !== index || state.reports.count >= capacity || state.reportBytes + size > maxReportBytes {
                state = State(index: index)
            }
            state.reports[key] = report
            state.reportBytes += size
        }
        return report
    }
}
