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
/// journal keeps what the tighter of the two allows. Both are counted under the memory budget's one lock
/// (without one, under a memory budget of its own with no limit), so a journal settles with both at once.
///
/// Journals settle in batches: each holds grants of both budgets (at least what it keeps, at most
/// ``RequestJournal/grantBatchBytes`` more, or exactly what it keeps after a removal), so ``usedBytes`` is
/// what journals were granted.
package final class JournalBodyBudget: Sendable {
    /// The most bytes all journals together keep (config `journal.maxTotalBodyBytes`, default 256 MiB).
    package let limit: Int
    /// The daemon's memory budget, which the journals' request and response bodies count against too.
    package let memory: MemoryBudget?
    /// Where the grants are counted: ``memory``, or a budget with no limit of its own.
    let ledger: MemoryBudget

    /// Creates a budget of `limit` bytes, within `memory` when given.
    package init(limit: Int, memory: MemoryBudget? = nil) {
        self.limit = max(0, limit)
        self.memory = memory
        ledger = memory ?? MemoryBudget(limit: .max)
    }

    /// The request-body bytes granted to journals now, over all journals.
    package var usedBytes: Int { ledger.used.journalRequestBodies }

    /// Grants a journal up to `requestBodies` more request-body bytes from this budget and `bytes` more body
    /// bytes from the memory budget, each as much as is free (everything asked, with `beyondLimits`).
    func grant(requestBodies: Int, bytes: Int, beyondLimits: Bool = false) -> (requestBodies: Int, bytes: Int) {
        ledger.grantJournal(
            requestBodies: requestBodies, requestBodyLimit: limit, bytes: bytes, beyondLimits: beyondLimits)
    }

    /// Gives back grants a journal no longer needs.
    func release(requestBodies: Int, bytes: Int) {
        ledger.releaseJournal(requestBodies: requestBodies, bytes: bytes)
    }
}
