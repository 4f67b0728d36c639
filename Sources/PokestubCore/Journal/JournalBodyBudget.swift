import PokestubLocking

/// The request-body bytes all of a daemon's journals keep together: its own and every session's.
///
/// Each journal has a byte budget of its own (``RequestJournal/maxBodyBytes``: 64 MiB for the daemon's,
/// 16 MiB for each session's), but 256 sessions could still hold 4 GiB between them, and twenty full session
/// journals held 375 MB. With one shared budget, a journal that would pass it drops its own oldest events
/// first, as it does for its own budget, so one job's uploads can crowd out only its own history. The newest
/// event is always kept, so the budget can be passed by at most one body per journal, itself bounded by the
/// journal's own budget.
///
/// It is a sub-budget of the daemon's ``MemoryBudget`` when it has one (``memory``): request bodies count
/// against both, and response bodies, which this budget does not count, against the memory budget, so a
/// journal keeps what the tighter of the two allows.
package final class JournalBodyBudget: Sendable {
    /// The most bytes all journals together keep (config `journal.maxTotalBodyBytes`, default 256 MiB).
    package let limit: Int
    /// The daemon's memory budget, which the journals' request and response bodies count against too.
    package let memory: MemoryBudget?
    private let used = Locked(0)

    /// Creates a budget of `limit` bytes, within `memory` when given.
    package init(limit: Int, memory: MemoryBudget? = nil) {
        self.limit = max(0, limit)
        self.memory = memory
    }

    /// The bytes kept now, over all journals.
    package var usedBytes: Int { used.withLock { $0 } }

    /// Lets a journal that holds `current` bytes of the budget settle on a new amount: `settle` gets how many
    /// bytes the journal may hold (its share so far plus what is free) and returns what it holds after
    /// trimming itself to that.
    func settle(holding current: Int, _ settle: (_ allowed: Int) -> Int) {
        used.withLock { used in
            let allowed = limit - (used - current)
            var now = current
            if let memory {
                memory.settleJournal(holding: current) { memoryAllowed in
                    now = settle(min(allowed, memoryAllowed))
                    return now
                }
            } else {
                now = settle(allowed)
            }
            used += now - current
        }
    }

    /// Gives back `bytes` a journal no longer holds.
    func release(_ bytes: Int) {
        guard bytes != 0 else { return }
        used.withLock { $0 -= bytes }
        memory?.releaseJournal(bytes)
    }

    /// ``settle(holding:_:)`` for response bodies, which only the memory budget counts: without one, `settle`
    /// is allowed everything.
    func settleResponseBodies(holding current: Int, _ settle: (_ allowed: Int) -> Int) {
        guard let memory else {
            _ = settle(Int.max)
            return
        }
        memory.settleJournal(holding: current, settle)
    }

    /// Gives back `bytes` of response bodies a journal no longer holds.
    func releaseResponseBodies(_ bytes: Int) {
        memory?.releaseJournal(bytes)
    }
}
