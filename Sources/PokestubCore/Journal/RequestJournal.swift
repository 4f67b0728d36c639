import Dispatch
import Foundation
import PokestubLocking

/// The request journal: the last `capacity` serve events, oldest dropped first, in memory that stays flat.
///
/// Request bodies count against a byte budget too (``maxBodyBytes``): when the bodies kept would pass it, the
/// oldest events go first, even before `capacity` is reached, so a test suite uploading large bodies cannot
/// make a shared daemon hold `capacity` times the largest body (10,000 × 16 MiB). The newest event is always
/// kept.
///
/// With a ``JournalBodyBudget`` shared by the daemon's journals, the request bodies kept also stay within what
/// that budget leaves this journal, the oldest events going first in the same way; with its
/// ``MemoryBudget``, request and response bodies stay within what the daemon's memory budget leaves journals.
///
/// The journal settles with those shared budgets in batches: it holds grants of them (``Ring/granted``) and
/// keeps its bodies within its grants under its own lock alone. An append that needs more asks the budgets
/// for it, at least ``grantBatchBytes``, between two acquisitions of its own lock, never inside one; a
/// journal that holds more than twice ``grantBatchBytes`` beyond what it keeps gives all but one batch back,
/// and a removal gives back everything beyond what it keeps. So an append takes one lock, and about one in
/// every `grantBatchBytes / body size` appends a second and third, one after the other.
///
/// Thread-safe: appends and queries take one lock (`Locked`). A capacity of 0 turns the journal off.
package final class RequestJournal: Sendable {
    /// The most events kept.
    package let capacity: Int
    /// The most request-body bytes kept, over all events (default 64 MiB).
    package let maxBodyBytes: Int
    /// The most response-body bytes kept, over all events (default 64 MiB); beyond it the oldest events lose
    /// their response body (``JournaledResponse/body``) and keep the rest. Shared stub bodies count in full.
    package let maxResponseBodyBytes: Int
    /// The request-body budget this journal shares with the daemon's other journals, if any.
    private let sharedBudget: JournalBodyBudget?
    private let ring: Locked<Ring>

    /// The least a journal asks the shared budgets for at once (64 KiB): what an append of small bodies
    /// settles in batches of (a 1.4 KB PokeAPI page's answer: one settlement in about 45 appends).
    static let grantBatchBytes = 64 << 10

    /// The id a record to append carries until the append gives it the next one (``recordAnswer``).
    static let unassignedID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Bytes of the shared budgets (``JournalBodyBudget``, and the ``MemoryBudget`` behind it).
    struct Grant {
        /// Request-body bytes, from the journals' request-body budget.
        var requestBodies = 0
        /// Request- and response-body bytes, from the memory budget.
        var bytes = 0

        var isZero: Bool { requestBodies == 0 && bytes == 0 }
    }

    private struct Ring {
        var records: [JournalRecord] = []
        /// Where the oldest event is once the ring is full.
        var head = 0
        /// The request-body bytes of the events kept.
        var bodyBytes = 0
        /// The response-body bytes of the events kept.
        var responseBodyBytes = 0
        /// How many of the oldest events are known to hold no response body: where dropping bodies resumes.
        var strippedOldest = 0
        /// Blocking waits in progress (`POST /__admin/requests/wait`), checked on every append.
        var waiters: [UUID: Waiter] = [:]
        /// Counts every change: each append, removal and clearing adds one.
        var sequence = 0
        /// Waits for the next change (the dashboard's long polling), completed on every change.
        var changeWaiters: [UUID: @Sendable (Int) -> Void] = [:]
        /// What the shared budgets granted this journal: at least the bodies it keeps, once settled.
        var granted = Grant()
        /// The serve event ids.
        var ids = EventIDGenerator()

        /// The bodies kept, as the shared budgets count them.
        var held: Grant { Grant(requestBodies: bodyBytes, bytes: bodyBytes + responseBodyBytes) }

        /// What the journal needs beyond its grants to keep what it holds now (0 where the grant suffices).
        var shortfall: Grant {
            Grant(
                requestBodies: max(0, bodyBytes - granted.requestBodies),
                bytes: max(0, bodyBytes + responseBodyBytes - granted.bytes))
        }

        /// Takes back from the grants what the journal holds beyond what it keeps plus `spare` bytes (more than
        /// `spare` beyond it), to be given back to the budgets outside the lock.
        mutating func excess(keeping spare: Int) -> Grant {
            let kept = held
            var excess = Grant()
            if granted.requestBodies - kept.requestBodies > 2 * spare || spare == 0 {
                excess.requestBodies = max(0, granted.requestBodies - kept.requestBodies - spare)
            }
            if granted.bytes - kept.bytes > 2 * spare || spare == 0 {
                excess.bytes = max(0, granted.bytes - kept.bytes - spare)
            }
            granted.requestBodies -= excess.requestBodies
            granted.bytes -= excess.bytes
            return excess
        }

        /// Counts a change and takes the change waiters, to be completed outside the lock.
        mutating func changed() -> (sequence: Int, waiters: [@Sendable (Int) -> Void]) {
            sequence += 1
            let waiting = Array(changeWaiters.values)
            changeWaiters = [:]
            return (sequence, waiting)
        }

        /// The request body of the record appended last, if any.
        var newestRequestBody: Data? {
            records.isEmpty ? nil : records[(head + records.count - 1) % records.count].request.body
        }

        /// The records oldest first.
        var ordered: [JournalRecord] {
            head == 0 ? records : Array(records[head...] + records[..<head])
        }

        /// Recounts the byte totals after ``records`` was rebuilt in order (``head`` 0).
        mutating func recount() {
            bodyBytes = records.reduce(0) { $0 + $1.requestBodyBytes }
            responseBodyBytes = records.reduce(0) { $0 + $1.responseBodyBytes }
            strippedOldest = 0
        }
    }

    /// Creates a journal.
    ///
    /// - Parameters:
    ///   - capacity: The most events kept (config `journal.maxEntries`, default 10,000); 0 keeps none.
    ///   - maxBodyBytes: The most request-body bytes kept over all events; older events go first beyond it.
    ///   - maxResponseBodyBytes: The most response-body bytes kept over all events; older events lose theirs
    ///     first beyond it.
    ///   - sharedBudget: A request-body budget shared with other journals (the daemon's and its sessions'),
    ///     which the request bodies kept here count against too.
    package init(
        capacity: Int, maxBodyBytes: Int = 64 << 20, maxResponseBodyBytes: Int = 64 << 20,
        sharedBudget: JournalBodyBudget? = nil
    ) {
        self.capacity = max(0, capacity)
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.maxResponseBodyBytes = max(0, maxResponseBodyBytes)
        self.sharedBudget = sharedBudget
        ring = Locked(Ring())
    }

    deinit {
        let granted = ring.withLock { $0.granted }
        sharedBudget?.release(requestBodies: granted.requestBodies, bytes: granted.bytes)
    }

    /// A new serve event id, cheap enough to make for every request (one uncontended lock; an answer journaled
    /// without one gets its id inside the append's lock).
    package func nextEventID() -> UUID {
        ring.withLock { $0.ids.next() }
    }

    /// Whether the journal keeps events.
    package var isEnabled: Bool { capacity > 0 }

    /// Adds an event, dropping the oldest when full.
    ///
    /// The event is kept as a ``JournalRecord`` (its request packed into one buffer, made before the lock is
    /// taken); the record it replaces is freed after the lock is released.
    package func append(_ event: ServeEvent) {
        guard capacity > 0 else { return }
        append(JournalRecord(event), request: event.request)
    }

    /// Adds a record whose request, as received, is `request`: what waiters are matched against, without
    /// parsing the record's request again. With `assigningID`, the record gets the journal's next event id.
    ///
    /// One lock when the journal's grants hold the new record (the common case); otherwise it asks the shared
    /// budgets for the rest after releasing its lock, then takes it again to keep what they granted.
    func append(_ record: JournalRecord, request: HTTPRequest, assigningID: Bool = false) {
        guard capacity > 0 else { return }
        var change: (sequence: Int, waiters: [@Sendable (Int) -> Void]) = (0, [])
        var replaced: JournalRecord?
        var record = record
        var shortfall = Grant()
        var excess = Grant()
        var responseBytesBefore = 0
        let satisfied: [Waiter] = ring.withLock { ring in
            change = ring.changed()
            if assigningID { record.id = ring.ids.next() }
            if !record.request.body.isEmpty, let newest = ring.newestRequestBody { record.request.shareBody(newest) }
            responseBytesBefore = ring.responseBodyBytes
            if ring.records.count < capacity {
                ring.records.append(record)
            } else {
                ring.bodyBytes -= ring.records[ring.head].requestBodyBytes
                ring.responseBodyBytes -= ring.records[ring.head].responseBodyBytes
                ring.strippedOldest = max(0, ring.strippedOldest - 1)
                replaced = ring.records[ring.head]
                ring.records[ring.head] = record
                ring.head = (ring.head + 1) % capacity
            }
            ring.bodyBytes += record.requestBodyBytes
            ring.responseBodyBytes += record.responseBodyBytes
            RequestJournal.trim(&ring, toBodyBytes: maxBodyBytes)
            RequestJournal.stripResponseBodies(&ring, toBytes: maxResponseBodyBytes)
            if sharedBudget != nil {
                shortfall = ring.shortfall
                if shortfall.isZero { excess = ring.excess(keeping: RequestJournal.grantBatchBytes) }
            }
            guard !ring.waiters.isEmpty else { return [] }
            var done: [Waiter] = []
            for (id, var waiter) in ring.waiters where waiter.pattern.matches(request) {
                waiter.matched.append(record.event(with: request))
                if waiter.countsEarlier && waiter.matched.count >= waiter.count {
                    ring.waiters.removeValue(forKey: id)
                    done.append(waiter)
                } else {
                    ring.waiters[id] = waiter
                }
            }
            return done
        }
        withExtendedLifetime(replaced) {}
        if let sharedBudget {
            if !excess.isZero { sharedBudget.release(requestBodies: excess.requestBodies, bytes: excess.bytes) }
            if !shortfall.isZero { settle(shortfall, with: sharedBudget, responseBytesBefore: responseBytesBefore) }
        }
        for waiter in satisfied { waiter.complete(.satisfied(waiter.matched)) }
        for waiter in change.waiters { waiter(change.sequence) }
    }

    /// Asks the shared budgets for what an append left the journal short of (at least ``grantBatchBytes`` of
    /// each), then keeps within what they granted: request bodies first, the oldest events going, as when
    /// their own budget is passed, then response bodies, the oldest losing theirs. Request bodies are fitted
    /// beside the response bodies kept before the append, as when the budgets were settled on every append.
    /// The newest event is always kept: what it alone holds beyond the grants is granted beyond the limits.
    private func settle(_ shortfall: Grant, with budget: JournalBodyBudget, responseBytesBefore: Int) {
        let batch = RequestJournal.grantBatchBytes
        let asked = Grant(
            requestBodies: shortfall.requestBodies > 0 ? max(shortfall.requestBodies, batch) : 0,
            bytes: shortfall.bytes > 0 ? max(shortfall.bytes, batch) : 0)
        let given = budget.grant(requestBodies: asked.requestBodies, bytes: asked.bytes)
        let (overdraft, excess) = ring.withLock { ring -> (Grant, Grant) in
            ring.granted.requestBodies += given.requestBodies
            ring.granted.bytes += given.bytes
            let requestRoom = min(ring.granted.requestBodies, ring.granted.bytes - responseBytesBefore)
            RequestJournal.trim(&ring, toBodyBytes: max(0, requestRoom))
            RequestJournal.stripResponseBodies(&ring, toBytes: max(0, ring.granted.bytes - ring.bodyBytes))
            let overdraft = ring.shortfall
            ring.granted.requestBodies += overdraft.requestBodies
            ring.granted.bytes += overdraft.bytes
            return (overdraft, ring.excess(keeping: batch))
        }
        if !overdraft.isZero {
            _ = budget.grant(requestBodies: overdraft.requestBodies, bytes: overdraft.bytes, beyondLimits: true)
        }
        if !excess.isZero { budget.release(requestBodies: excess.requestBodies, bytes: excess.bytes) }
    }

    /// The number of waits for the next change in progress.
    package var changeWaiterCount: Int {
        ring.withLock { $0.changeWaiters.count }
    }

    /// The journal's change count: one more with each append, removal and clearing.
    package var sequence: Int {
        ring.withLock { $0.sequence }
    }

    /// Calls `complete` with the change count as soon as it passes `after`, or with the count unchanged
    /// when `timeoutMilliseconds` pass first: the dashboard's long polling. Holds no thread while waiting.
    ///
    /// - Parameters:
    ///   - after: The change count the caller has seen (``sequence``).
    ///   - timeoutMilliseconds: The longest wait, in milliseconds.
    ///   - complete: Called exactly once, on any thread.
    package func waitForChange(
        after: Int, timeoutMilliseconds: Int, complete: @escaping @Sendable (Int) -> Void
    ) {
        let id = UUID()
        let now: Int? = ring.withLock { ring in
            if ring.sequence != after || capacity == 0 { return ring.sequence }
            ring.changeWaiters[id] = complete
            return nil
        }
        if let now {
            complete(now)
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(max(0, timeoutMilliseconds))) {
            [self] in
            let expired = ring.withLock { ring in ring.changeWaiters.removeValue(forKey: id).map { ($0, ring.sequence) }
            }
            if let (waiter, sequence) = expired { waiter(sequence) }
        }
    }

    /// Drops the oldest events until the request bodies kept fit `limit` bytes; the newest event stays. Rare
    /// (large bodies only), so the ring is simply rebuilt without its oldest events.
    private static func trim(_ ring: inout Ring, toBodyBytes limit: Int) {
        guard ring.bodyBytes > limit else { return }
        let ordered = ring.ordered
        var dropped = 0
        var bytes = ring.bodyBytes
        while bytes > limit && dropped < ordered.count - 1 {
            bytes -= ordered[dropped].requestBodyBytes
            dropped += 1
        }
        ring.records = Array(ordered[dropped...])
        ring.head = 0
        ring.recount()
    }

    /// The oldest events with a response body lose it first until the response bodies kept fit `limit` bytes;
    /// the newest keeps its own.
    private static func stripResponseBodies(_ ring: inout Ring, toBytes limit: Int) {
        while ring.responseBodyBytes > limit && ring.strippedOldest < ring.records.count - 1 {
            let index = (ring.head + ring.strippedOldest) % ring.records.count
            ring.responseBodyBytes -= ring.records[index].responseBodyBytes
            ring.records[index].response?.body = nil
            ring.strippedOldest += 1
        }
    }

    /// How a wait for requests ended.
    package enum WaitOutcome: Sendable {
        /// Enough matching requests arrived: these, oldest first.
        case satisfied([ServeEvent])
        /// The time ran out; these matching requests had arrived.
        case timedOut([ServeEvent])
    }

    private struct Waiter {
        var pattern: RequestPattern
        var count: Int
        var matched: [ServeEvent]
        var complete: @Sendable (WaitOutcome) -> Void
        /// Whether ``matched`` holds the matching events that were there when the wait began; until then an
        /// append adds to it but does not end the wait.
        var countsEarlier = false
    }

    /// Calls `complete` as soon as `count` requests matching `pattern` are in the journal (counting those
    /// already there), or when `timeoutMilliseconds` pass. Holds no thread while waiting: the check runs on
    /// each append, and a timer ends the wait.
    ///
    /// - Parameters:
    ///   - pattern: Which requests count.
    ///   - count: How many are needed (at least 1).
    ///   - timeoutMilliseconds: The longest wait, in milliseconds.
    ///   - complete: Called exactly once, on any thread.
    package func wait(
        for pattern: RequestPattern, count: Int, timeoutMilliseconds: Int,
        complete: @escaping @Sendable (WaitOutcome) -> Void
    ) {
        let id = UUID()
        // The waiter is registered first, so no append is missed, and matched against the events already there
        // outside the lock (each request parsed again from its record), so appends are not held up meanwhile.
        let earlier: [JournalRecord]? = ring.withLock { ring in
            guard capacity > 0 else { return nil }
            ring.waiters[id] = Waiter(pattern: pattern, count: count, matched: [], complete: complete)
            return ring.ordered
        }
        guard let earlier else {
            complete(.timedOut([]))
            return
        }
        let matchedEarlier = earlier.lazy.map(\.event).filter { pattern.matches($0.request) }
        let satisfied: Waiter? = ring.withLock { ring in
            guard var waiter = ring.waiters[id] else { return nil }
            waiter.matched = Array(matchedEarlier) + waiter.matched
            waiter.countsEarlier = true
            if waiter.matched.count >= waiter.count {
                ring.waiters.removeValue(forKey: id)
                return waiter
            }
            ring.waiters[id] = waiter
            return nil
        }
        if let satisfied {
            complete(.satisfied(satisfied.matched))
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(max(0, timeoutMilliseconds))) {
            [self] in
            let expired = ring.withLock { $0.waiters.removeValue(forKey: id) }
            if let expired { expired.complete(.timedOut(expired.matched)) }
        }
    }

    /// The number of waits in progress.
    package var waitingCount: Int {
        ring.withLock { $0.waiters.count }
    }

    /// The events, oldest first, each request parsed again from its record (outside the lock).
    package var events: [ServeEvent] {
        records.map(\.event)
    }

    /// The records, oldest first: what the queries filter before they parse a request.
    var records: [JournalRecord] {
        ring.withLock { $0.ordered }
    }

    /// The number of events kept.
    package var count: Int {
        ring.withLock { $0.records.count }
    }

    /// The event with this id.
    package func event(id: UUID) -> ServeEvent? {
        ring.withLock { ring in ring.records.first { $0.id == id } }?.event
    }

    /// Removes every event.
    package func clear() {
        let (change, excess) = ring.withLock { ring in
            ring.records = []
            ring.head = 0
            ring.recount()
            return (ring.changed(), ring.excess(keeping: 0))
        }
        sharedBudget?.release(requestBodies: excess.requestBodies, bytes: excess.bytes)
        for waiter in change.waiters { waiter(change.sequence) }
    }

    /// Removes the events for which `shouldRemove` is true.
    ///
    /// - Returns: How many were removed.
    @discardableResult
    package func removeAll(where shouldRemove: (ServeEvent) -> Bool) -> Int {
        // Decided outside the lock, each request parsed again from its record; events appended meanwhile stay.
        let doomed = Set(records.filter { shouldRemove($0.event) }.map(\.id))
        guard !doomed.isEmpty else { return 0 }
        let (removed, change, excess) = ring.withLock { ring in
            let kept = ring.ordered.filter { !doomed.contains($0.id) }
            let removed = ring.records.count - kept.count
            ring.records = kept
            ring.head = 0
            ring.recount()
            return (
                removed, removed > 0 ? ring.changed() : (sequence: ring.sequence, waiters: []),
                ring.excess(keeping: 0)
            )
        }
        sharedBudget?.release(requestBodies: excess.requestBodies, bytes: excess.bytes)
        for waiter in change.waiters { waiter(change.sequence) }
        return removed
    }
}
