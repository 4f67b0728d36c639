#if DEBUG
    import Foundation
    import PokestubLocking
    import Testing

    @testable import PokestubCore

    /// The locks a journal append takes, counted by ``LockCensus`` (debug builds only): one, with the shared
    /// budgets settled in batches beside it, never inside it.
    @Suite("Locks a journal append takes")
    struct JournalLockTests {
        /// Appends an answer with a `bytes`-byte body and returns the locks it took on this thread.
        private static func answer(
            _ journal: RequestJournal, path: String, bytes: Int
        ) throws -> [LockCensus.Acquisition] {
            let thread = LockCensus.currentThread
            let before = LockCensus.acquisitions(onThread: thread)
            journal.recordAnswer(
                to: Fixtures.request(path), stub: nil, status: 200, timing: ServeTiming(),
                response: HTTPResponse(status: 200, body: ResponseBody(Data(count: bytes))))
            return try #require(
                LockCensus.acquisitions(onThread: thread, in: before..<LockCensus.acquisitions(onThread: thread)))
        }

        @Test("an answer within the journal's grants takes one lock; settling takes two more, none inside another")
        func appendLocks() throws {
            let memory = MemoryBudget(limit: 1 << 30)
            let journal = RequestJournal(
                capacity: 100, sharedBudget: JournalBodyBudget(limit: 256 << 20, memory: memory))
            var counts: [Int] = []
            for number in 0..<300 {
                let taken = try Self.answer(journal, path: "/api/v2/pokemon/\(number)/", bytes: 1_400)
                #expect(taken.allSatisfy { $0.held == 0 }, "a lock inside another: \(taken)")
                counts.append(taken.count)
            }
            // 100 answers of 1,400 bytes fill the ring in 140,000 bytes: three batches of 64 KiB. Once it is full,
            // each answer replaces one of the same size and needs nothing more.
            #expect(counts.allSatisfy { $0 == 1 || $0 == 3 }, "\(counts)")
            #expect(counts.filter { $0 > 1 }.count <= 3, "\(counts)")
            #expect(counts.suffix(200).allSatisfy { $0 == 1 }, "\(counts)")
            // The memory budget counts at least what the journal keeps, and less than a batch more.
            let held = 100 * 1_400
            #expect(memory.used.journals >= held)
            #expect(memory.used.journals < held + RequestJournal.grantBatchBytes)
        }

        @Test("a journal that keeps much less than it was granted gives the rest back, and all of it when cleared")
        func grantsGoBack() throws {
            let memory = MemoryBudget(limit: 1 << 30)
            let journal = RequestJournal(capacity: 2, sharedBudget: JournalBodyBudget(limit: 256 << 20, memory: memory))
            _ = try Self.answer(journal, path: "/large/1", bytes: 1 << 20)
            _ = try Self.answer(journal, path: "/large/2", bytes: 1 << 20)
            #expect(memory.used.journals == 2 << 20)
            // Two small answers push the large ones out: the journal keeps 2 KB of the 2 MiB it was granted.
            _ = try Self.answer(journal, path: "/small/1", bytes: 1_000)
            _ = try Self.answer(journal, path: "/small/2", bytes: 1_000)
            #expect(memory.used.journals >= 2_000)
            #expect(memory.used.journals <= 2_000 + RequestJournal.grantBatchBytes)
            journal.clear()
            #expect(memory.used.journals == 0)
        }
    }
#endif
