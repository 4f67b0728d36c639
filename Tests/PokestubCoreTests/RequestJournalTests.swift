import Dispatch
import Foundation
import Testing

@testable import PokestubCore

@Suite("RequestJournal")
struct RequestJournalTests {
    private func event(_ path: String, matched: Bool = true) -> ServeEvent {
        ServeEvent(
            receivedAt: Date(), request: Fixtures.request(path),
            stub: matched ? ServeEvent.StubReference(id: UUID(), name: path) : nil,
            responseStatus: matched ? 200 : 404, durationMilliseconds: 0.5)
    }

    private func paths(_ journal: RequestJournal) -> [String] {
        journal.events.map(\.request.path)
    }

    @Test("a ring of capacity 3 keeps the newest 3, oldest first")
    func ring() {
        let journal = RequestJournal(capacity: 3)
        #expect(journal.events.isEmpty)
        for number in 1...2 { journal.append(event("/\(number)")) }
        #expect(paths(journal) == ["/1", "/2"])
        for number in 3...7 { journal.append(event("/\(number)")) }
        #expect(paths(journal) == ["/5", "/6", "/7"])
        #expect(journal.count == 3)
        journal.append(event("/8"))
        #expect(paths(journal) == ["/6", "/7", "/8"])
    }

    @Test("request bodies count against a byte budget: the oldest events go first, the newest always stays")
    func bodyBudget() {
        let journal = RequestJournal(capacity: 100, maxBodyBytes: 3_000)
        func upload(_ path: String, bytes: Int) -> ServeEvent {
            ServeEvent(
                receivedAt: Date(), request: HTTPRequest(method: "POST", rawURL: path, body: Data(count: bytes)),
                stub: nil, responseStatus: 404, durationMilliseconds: 0)
        }
        for number in 1...5 { journal.append(upload("/\(number)", bytes: 1_000)) }
        #expect(paths(journal) == ["/3", "/4", "/5"])
        journal.append(event("/small"))
        #expect(paths(journal) == ["/3", "/4", "/5", "/small"])
        journal.append(upload("/huge", bytes: 10_000))
        #expect(paths(journal) == ["/huge"])
        journal.append(upload("/next", bytes: 1_000))
        #expect(paths(journal) == ["/next"])
        #expect(journal.removeAll { $0.request.path == "/next" } == 1)
        for number in 1...3 { journal.append(upload("/again-\(number)", bytes: 1_000)) }
        #expect(journal.count == 3, "the budget was recounted after the removal")
    }

    @Test("a body sent again is kept once: the next event shares its bytes, each event keeps its own body")
    func repeatedBodiesShareStorage() {
        let journal = RequestJournal(capacity: 10, maxBodyBytes: 9_000)
        func upload(_ body: Data) -> ServeEvent {
            ServeEvent(
                receivedAt: Date(), request: HTTPRequest(method: "POST", rawURL: "/up", body: body), stub: nil,
                responseStatus: 404, durationMilliseconds: 0)
        }
        let first = Data((0..<2_000).map { UInt8($0 % 251) })
        var other = first
        other[1_999] = 0
        // Each a buffer of its own, as two requests' bodies are.
        for body in [first, Data(first), other, Data(first)] { journal.append(upload(body)) }
        let bodies = journal.events.map(\.request.body)
        #expect(bodies == [first, first, other, first])
        func address(_ data: Data) -> UnsafeRawPointer? { data.withUnsafeBytes { $0.baseAddress } }
        #expect(address(bodies[0]) == address(bodies[1]))
        #expect(address(bodies[1]) != address(bodies[2]))
        #expect(address(bodies[2]) != address(bodies[3]))
        // Budgets count every event's body in full, shared or not: a fifth passes 9,000 bytes, the oldest goes.
        journal.append(upload(Data(first)))
        #expect(journal.events.map(\.request.body) == [first, other, first, first])
    }

    @Test("capacity 0 keeps nothing; a negative capacity is 0")
    func disabled() {
        let journal = RequestJournal(capacity: 0)
        journal.append(event("/1"))
        #expect(journal.count == 0)
        #expect(journal.events.isEmpty)
        #expect(!journal.isEnabled)
        #expect(RequestJournal(capacity: -5).capacity == 0)
    }

    @Test("removeAll(where:) removes matching events and keeps the order of the rest")
    func removeWhere() {
        let journal = RequestJournal(capacity: 4)
        for number in 1...6 { journal.append(event("/\(number)", matched: number % 2 == 0)) }
        #expect(paths(journal) == ["/3", "/4", "/5", "/6"])
        let removed = journal.removeAll { !$0.wasMatched }
        #expect(removed == 2)
        #expect(paths(journal) == ["/4", "/6"])
        journal.append(event("/7"))
        journal.append(event("/8"))
        journal.append(event("/9"))
        #expect(paths(journal) == ["/6", "/7", "/8", "/9"])
        #expect(journal.removeAll { _ in false } == 0)
    }

    @Test("event(id:) finds a kept event and nothing once it is dropped")
    func byID() {
        let journal = RequestJournal(capacity: 2)
        let first = event("/first")
        journal.append(first)
        #expect(journal.event(id: first.id)?.request.path == "/first")
        #expect(journal.event(id: UUID()) == nil)
        journal.append(event("/2"))
        journal.append(event("/3"))
        #expect(journal.event(id: first.id) == nil)
    }

    @Test("clear() empties the journal")
    func clear() {
        let journal = RequestJournal(capacity: 3)
        for number in 1...5 { journal.append(event("/\(number)")) }
        journal.clear()
        #expect(journal.count == 0)
        journal.append(event("/after"))
        #expect(paths(journal) == ["/after"])
    }

    @Test("8 threads appending 1,000 events each leave exactly capacity events", arguments: [100, 8_000, 10_000])
    func concurrentAppends(capacity: Int) {
        let journal = RequestJournal(capacity: capacity)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for number in 0..<1_000 {
                journal.append(
                    ServeEvent(
                        receivedAt: Date(), request: HTTPRequest(method: "GET", rawURL: "/\(thread)/\(number)"),
                        stub: nil, responseStatus: 404, durationMilliseconds: 0))
            }
        }
        #expect(journal.count == min(capacity, 8_000))
        let events = journal.events
        #expect(events.count == min(capacity, 8_000))
        #expect(Set(events.map(\.id)).count == events.count)
        // Each thread's own events stay in the order it appended them.
        for thread in 0..<8 {
            let numbers = events.compactMap { event -> Int? in
                let parts = event.request.path.split(separator: "/")
                return parts.first == Substring("\(thread)") ? Int(parts[1]) : nil
            }
            #expect(numbers == numbers.sorted())
        }
    }
}

@Suite("The request-body budget journals share")
struct JournalBodyBudgetTests {
    private static func event(_ path: String, bytes: Int) -> ServeEvent {
        ServeEvent(
            receivedAt: Date(), request: HTTPRequest(method: "POST", rawURL: path, body: Data(count: bytes)),
            stub: nil, responseStatus: 404, durationMilliseconds: 0)
    }

    @Test("a journal past the shared budget drops its own oldest events, never another journal's")
    func sharedBudget() {
        let budget = JournalBodyBudget(limit: 1_000_000)
        let daemon = RequestJournal(capacity: 100, maxBodyBytes: 10_000_000, sharedBudget: budget)
        var session: RequestJournal? = RequestJournal(capacity: 100, maxBodyBytes: 10_000_000, sharedBudget: budget)
        for number in 0..<4 { daemon.append(Self.event("/daemon/\(number)", bytes: 200_000)) }
        #expect(budget.usedBytes == 800_000)
        for number in 0..<3 { session?.append(Self.event("/session/\(number)", bytes: 200_000)) }
        // The session's journal keeps what the budget leaves it; the daemon's keeps all of its own.
        #expect(daemon.count == 4)
        #expect(session?.events.map(\.request.rawURL) == ["/session/2"])
        #expect(budget.usedBytes == 1_000_000)
        daemon.clear()
        #expect(budget.usedBytes == 200_000)
        for number in 3..<6 { session?.append(Self.event("/session/\(number)", bytes: 200_000)) }
        #expect(session?.count == 4)
        #expect(session?.removeAll { $0.request.rawURL == "/session/2" } == 1)
        #expect(budget.usedBytes == 600_000)
        // A session that ends gives its share back.
        session = nil
        #expect(budget.usedBytes == 0)
    }
}

@Suite("RequestJournal: the answers it keeps")
struct RequestJournalResponseTests {
    private func answered(_ path: String, bytes: Int) -> ServeEvent {
        let response = HTTPResponse(status: 200, body: ResponseBody(Data(count: bytes)))
        return ServeEvent(
            receivedAt: Date(), request: Fixtures.request(path), stub: nil, responseStatus: 200,
            durationMilliseconds: 0, response: JournaledResponse(response))
    }

    @Test("response bodies count against their own budget: the oldest lose theirs first, every event stays")
    func responseBodyBudget() {
        let journal = RequestJournal(capacity: 4, maxResponseBodyBytes: 250)
        for number in 1...3 { journal.append(answered("/\(number)", bytes: 100)) }
        #expect(journal.events.map { $0.response?.body == nil } == [true, false, false])
        #expect(journal.events.allSatisfy { $0.response?.bodySize == 100 })
        // The ring wraps: the dropped oldest event was already stripped, and the next oldest loses its body.
        for number in 4...6 { journal.append(answered("/\(number)", bytes: 100)) }
        #expect(journal.events.map(\.request.path) == ["/3", "/4", "/5", "/6"])
        #expect(journal.events.map { $0.response?.body == nil } == [true, true, false, false])
        // One answer larger than the budget is still kept whole, as the newest.
        journal.append(answered("/big", bytes: 1_000))
        #expect(journal.events.map { $0.response?.body == nil } == [true, true, true, false])
        #expect(journal.removeAll { $0.request.path == "/big" } == 1)
        journal.append(answered("/after", bytes: 100))
        #expect(journal.events.last?.response?.body?.count == 100)
    }
}
