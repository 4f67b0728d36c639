import Foundation

/// When a request arrived, by the wall clock for the journal and by the monotonic clock for its duration:
/// taken once when handling starts, and handed along to wherever the answer is finally made.
package struct ServeTiming: Sendable {
    /// When the request arrived (WireMock's `loggedDate`).
    package let receivedAt: Date
    /// When handling started, for ``elapsedMilliseconds``.
    package let started: ContinuousClock.Instant

    /// Marks now as the moment a request arrived.
    package init() {
        receivedAt = Date()
        started = .now
    }

    /// Milliseconds since ``started``, with sub-millisecond precision (WireMock's `timing.totalTime`).
    package var elapsedMilliseconds: Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
