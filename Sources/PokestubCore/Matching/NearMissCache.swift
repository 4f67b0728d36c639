import Foundation
import PokestubLocking

/// Remembers the 404 text of recent unmatched requests, so a client that repeats the same miss (a retry
/// loop, a poll) costs a dictionary lookup instead of a comparison with every nearby stub.
///
/// Entries belong to one stub set (a scope's ``StubIndex``, and for a session also the daemon's): when either
/// changes, the cache starts over. At most `capacity` entries and ``maxReportBytes`` of report text are kept;
/// when full it starts over too (misses are rare, repeats are common). Requests are told apart by a digest of their body, not the body itself:
/// keeping bodies here made 500 misses of 4 MB each hold 2 GB with the journal off.
package final class NearMissCache: Sendable {
    private let capacity: Int
    private let state = Locked(State())

    private struct State {
        /// The stub sets the reports belong to; weak, so a replaced set is freed at once.
        weak var index: StubIndex?
        weak var sharedIndex: StubIndex?
        var reports: [Key: NearMissAnswer] = [:]
        var reportBytes = 0

        func belongs(to index: StubIndex, and sharedIndex: StubIndex?) -> Bool {
            self.index === index && self.sharedIndex === sharedIndex
        }
    }

    private struct Key: Hashable {
        var method: String
        var rawURL: String
        var headers: HTTPHeaders
        var body: ContentDigest
    }

    /// The most report text kept, in UTF-8 bytes (a report repeats the closest stubs' patterns, which can be
    /// large); a report longer than a sixteenth of it is not kept at all.
    package let maxReportBytes: Int

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - capacity: The most reports kept (default 512).
    ///   - maxReportBytes: The most report text kept, in bytes (default 8 MiB).
    package init(capacity: Int = 512, maxReportBytes: Int = 8 << 20) {
        self.capacity = capacity
        self.maxReportBytes = maxReportBytes
    }

    /// The plain-text near-miss report for an unmatched request (``NearMiss/report(for:nearMisses:)``).
    ///
    /// - Parameters:
    ///   - request: The unmatched request.
    ///   - index: The stubs compared first.
    ///   - sharedIndex: More stubs compared too (the daemon's, for a session), or `nil`.
    package func report(for request: HTTPRequest, in index: StubIndex, and sharedIndex: StubIndex? = nil) -> String {
        answer(for: request, in: index, and: sharedIndex).report
    }

    /// The near-miss report and the `Pokestub-Closest-Stub` header value for an unmatched request.
    ///
    /// - Parameters:
    ///   - request: The unmatched request.
    ///   - index: The stubs compared first.
    ///   - sharedIndex: More stubs compared too (the daemon's, for a session), or `nil`.
    ///   - schemas: The API's schemas, whose hints (``SchemaSet/hints(for:)``) the answer leads with, or `nil`.
    package func answer(
        for request: HTTPRequest, in index: StubIndex, and sharedIndex: StubIndex? = nil, schemas: SchemaSet? = nil
    ) -> NearMissAnswer {
        let key = Key(
            method: request.method, rawURL: request.rawURL, headers: request.headers,
            body: ContentDigest(request.body))
        if let cached = state.withLock({ $0.belongs(to: index, and: sharedIndex) ? $0.reports[key] : nil }) {
            return cached
        }
        let closest = NearMiss.closest(to: request, in: [index] + (sharedIndex.map { [$0] } ?? []))
        let answer = NearMissAnswer(for: request, nearMisses: closest, hints: schemas?.hints(for: request) ?? [])
        let size = answer.report.utf8.count + answer.closestStub.utf8.count
        guard size <= maxReportBytes / 16 else { return answer }
        state.withLock { state in
            if !state.belongs(to: index, and: sharedIndex) || state.reports.count >= capacity
                || state.reportBytes + size > maxReportBytes
            {
                state = State(index: index, sharedIndex: sharedIndex)
            }
            state.reports[key] = answer
            state.reportBytes += size
        }
        return answer
    }
}
