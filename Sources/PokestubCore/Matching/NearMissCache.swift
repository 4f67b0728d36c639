import Foundation
import Synchronization

/// Remembers the 404 text of recent unmatched requests, so a client that repeats the same miss (a retry
/// loop, a poll) costs a dictionary lookup instead of a comparison with every nearby stub.
///
/// Entries belong to one stub set: when the ``StubIndex`` changes, the cache starts over. At most
/// `capacity` entries are kept; when full it starts over too (misses are rare, repeats are common).
public final class NearMissCache: Sendable {
    private let capacity: Int
    private let state = Mutex(State())

    private struct State {
        /// The stub set the reports belong to; weak, so a replaced set is freed at once.
        weak var index: StubIndex?
        var reports: [Key: String] = [:]
    }

    private struct Key: Hashable {
        var method: String
        var rawURL: String
        var headers: HTTPHeaders
        var body: Data
    }

    /// Creates a cache.
    ///
    /// - Parameter capacity: The most reports kept (default 512).
    public init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// The plain-text near-miss report for an unmatched request (``NearMiss/report(for:nearMisses:)``).
    public func report(for request: HTTPRequest, in index: StubIndex) -> String {
        let key = Key(method: request.method, rawURL: request.rawURL, headers: request.headers, body: request.body)
        if let cached = state.withLock({ $0.index === index ? $0.reports[key] : nil }) {
            return cached
        }
        let report = NearMiss.report(for: request, nearMisses: NearMiss.closest(to: request, in: index))
        state.withLock { state in
            if state.index !== index || state.reports.count >= capacity {
                state = State(index: index)
            }
            state.reports[key] = report
        }
        return report
    }
}
