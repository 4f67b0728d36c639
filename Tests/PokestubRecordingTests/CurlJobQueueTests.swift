import Dispatch
import Foundation
import PokestubCore
import Testing

@testable import PokestubUpstream

@Suite("The upstream workers' queue: one expiry check armed at a time, not a timer per request")
struct CurlJobQueueTests {
    private func job(_ path: String, timeoutMilliseconds: Int = 30_000) -> CurlJob {
        CurlJob(
            request: UpstreamRequest(method: "GET", url: "http://127.0.0.1:9" + path),
            timeoutMilliseconds: timeoutMilliseconds
        ) { _ in }
    }

    @Test("the first job arms the check, the jobs after it arm none, and it disarms once nothing is queued")
    func oneCheckArmed() throws {
        let queue = CurlJobQueue(routeLimit: 4)
        guard case .queued(let check?) = queue.push(job("/a")) else {
            Issue.record("the first job armed no expiry check")
            return
        }
        for number in 0..<50 {
            guard case .queued(nil) = queue.push(job("/b/\(number)")) else {
                Issue.record("job \(number) armed an expiry check of its own")
                return
            }
        }
        // The workers take every job (each path under its limit) and finish it.
        for _ in 0...50 {
            let taken = try #require(queue.pop())
            queue.finish(taken)
        }
        let (expired, nextCheck) = queue.expireDue(now: check)
        #expect(expired.isEmpty)
        #expect(nextCheck == nil)
        #expect(!queue.isExpiryArmed)
        guard case .queued(_?) = queue.push(job("/c")) else {
            Issue.record("a job queued after the check disarmed armed none")
            return
        }
    }

    @Test("a check takes out the jobs past their deadline and asks to be called again for those still queued")
    func expiresInDeadlineOrder() {
        let queue = CurlJobQueue(routeLimit: 1)
        let soon = job("/x", timeoutMilliseconds: 1_000)
        let later = job("/y", timeoutMilliseconds: 60_000)
        _ = queue.push(soon)
        _ = queue.push(later)
        let (first, next) = queue.expireDue(now: soon.deadline)
        #expect(first.map(\.request.url) == ["http://127.0.0.1:9/x"])
        #expect(next == later.deadline)
        #expect(queue.isExpiryArmed)
        let (second, after) = queue.expireDue(now: later.deadline)
        #expect(second.map(\.request.url) == ["http://127.0.0.1:9/y"])
        #expect(after == nil)
        #expect(!queue.isExpiryArmed)
        #expect(queue.close().isEmpty)
    }
}
