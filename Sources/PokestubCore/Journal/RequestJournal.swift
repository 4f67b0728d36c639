import Foundation
import Synchronization

/// The request journal: the last `capacity` serve events, oldest dropped first, in memory that stays flat.
///
/// Thread-safe: appends and queries take one `Mutex`. A capacity of 0 turns the journal off.
public final class RequestJournal: Sendable {
    /// The most events kept.
    public let capacity: Int
    private let ring: Mutex<Ring>
    private let ids = EventIDGenerator()

    private struct Ring {
        var events: [ServeEvent] = []
        /// Where the oldest event is once the ring is full.
        var head = 0

        /// The events oldest first.
        var ordered: [ServeEvent] {
            head == 0 ? events : Array(events[head...] + events[..<head])
        }
    }

    /// Creates a journal.
    ///
    /// - Parameter capacity: The most events kept (config `journal.maxEntries`, default 10,000); 0 keeps none.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        ring = Mutex(Ring())
    }

    /// A new serve event id, cheap enough to make for every request.
    public func nextEventID() -> UUID {
        ids.next()
    }

    /// Whether the journal keeps events.
    public var isEnabled: Bool { capacity > 0 }

    /// Adds an event, dropping the oldest when full.
    public func append(_ event: ServeEvent) {
        guard capacity > 0 else { return }
        ring.withLock { ring in
            if ring.events.count < capacity {
                ring.events.append(event)
            } else {
                ring.events[ring.head] = event
                ring.head = (ring.head + 1) % capacity
            }
        }
    }

    /// The events, oldest first.
    public var events: [ServeEvent] {
        ring.withLock { $0.ordered }
    }

    /// The number of events kept.
    public var count: Int {
        ring.withLock { $0.events.count }
    }

    /// The event with this id.
    public func event(id: UUID) -> ServeEvent? {
        ring.withLock { ring in ring.events.first { $0.id == id } }
    }

    /// Removes every event.
    public func clear() {
        ring.withLock { $0 = Ring() }
    }

    /// Removes the events for which `shouldRemove` is true.
    ///
    /// - Returns: How many were removed.
    @discardableResult
    public func removeAll(where shouldRemove: (ServeEvent) -> Bool) -> Int {
        ring.withLock { ring in
            let kept = ring.ordered.filter { !shouldRemove($0) }
            let removed = ring.events.count - kept.count
            ring = Ring(events: kept, head: 0)
            return removed
        }
    }
}
