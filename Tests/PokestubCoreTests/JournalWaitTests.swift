import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("Waiting on the request journal")
struct JournalWaitTests {
    private static func event(_ path: String) -> ServeEvent {
        ServeEvent(
            receivedAt: Date(), request: HTTPRequest(method: "GET", rawURL: path), stub: nil, responseStatus: 404,
            durationMilliseconds: 0)
    }

    private static func outcome(
        _ journal: RequestJournal, pattern: RequestPattern, count: Int, timeout: Int, while act: () -> Void
    ) async -> RequestJournal.WaitOutcome {
        await withCheckedContinuation { continuation in
            journal.wait(for: pattern, count: count, timeoutMilliseconds: timeout) {
                continuation.resume(returning: $0)
            }
            act()
        }
    }

    @Test("a wait ends as soon as enough matching requests arrive, counting those already there")
    func endsEarly() async throws {
        let journal = RequestJournal(capacity: 100)
        journal.append(Self.event("/api/v2/pokemon/1/"))
        journal.append(Self.event("/other"))
        let pattern = RequestPattern(url: .urlPathPattern(try StubRegex("/api/v2/pokemon/.*")))
        let clock = ContinuousClock()
        let started = clock.now
        let result = await Self.outcome(journal, pattern: pattern, count: 3, timeout: 10_000) {
            journal.append(Self.event("/api/v2/pokemon/2/"))
            journal.append(Self.event("/nope"))
            journal.append(Self.event("/api/v2/pokemon/3/"))
        }
        guard case .satisfied(let events) = result else {
            Issue.record("expected satisfied, got \(result)")
            return
        }
        #expect(events.map(\.request.rawURL) == ["/api/v2/pokemon/1/", "/api/v2/pokemon/2/", "/api/v2/pokemon/3/"])
        #expect(clock.now - started < .seconds(5))
        #expect(journal.waitingCount == 0)
    }

    @Test("a wait that is not satisfied times out with what did arrive")
    func timesOut() async throws {
        let journal = RequestJournal(capacity: 100)
        let pattern = RequestPattern(method: "POST")
        let result = await Self.outcome(journal, pattern: pattern, count: 2, timeout: 100) {
            journal.append(
                ServeEvent(
                    receivedAt: Date(), request: HTTPRequest(method: "POST", rawURL: "/team"), stub: nil,
                    responseStatus: 404, durationMilliseconds: 0))
        }
        guard case .timedOut(let events) = result else {
            Issue.record("expected timedOut, got \(result)")
            return
        }
        #expect(events.count == 1)
        #expect(journal.waitingCount == 0)
    }

    @Test("many waits at once each complete exactly once")
    func manyWaits() async throws {
        let journal = RequestJournal(capacity: 1_000)
        let completed = await withTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask {
                    let pattern = RequestPattern(url: .urlPath("/w/\(index % 5)"))
                    let result = await Self.outcome(journal, pattern: pattern, count: 2, timeout: 5_000) {}
                    if case .satisfied = result { return 1 }
                    return 0
                }
            }
            group.addTask {
                // Appended once all 50 waits are open, so each is satisfied by arrivals, not by the backlog.
                try? await eventually("50 waits are open") { journal.waitingCount == 50 }
                for _ in 0..<2 {
                    for path in 0..<5 { journal.append(Self.event("/w/\(path)")) }
                }
                return 0
            }
            return await group.reduce(0, +)
        }
        #expect(completed == 50)
        #expect(journal.waitingCount == 0)
    }
}
