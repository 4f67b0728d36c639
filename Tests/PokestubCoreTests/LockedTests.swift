import Dispatch
import PokestubLocking
import Testing

/// The one lock type every target uses, in place of `Synchronization.Mutex` and `Atomic`.
@Suite("Locked")
struct LockedTests {
    private struct Refused: Error {}

    @Test("increments from many threads at once all count")
    func concurrentIncrements() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test("what the closure returns comes back, and copies share one value")
    func returnsAndShares() {
        let names = Locked([String]())
        let copy = names
        let count = copy.withLock { names in
            names.append("bulbasaur")
            return names.count
        }
        #expect(count == 1)
        #expect(names.withLock { $0 } == ["bulbasaur"])
    }

    @Test("a closure that throws leaves its changes and releases the lock")
    func throwingReleases() {
        let value = Locked(1)
        #expect(throws: Refused.self) {
            try value.withLock { (value: inout Int) throws(Refused) in
                value = 2
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == 2)
    }
}
