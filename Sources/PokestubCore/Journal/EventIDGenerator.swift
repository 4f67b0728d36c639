import Foundation

/// Makes serve event ids without a system call per request: a random 64-bit prefix drawn once per journal,
/// then a counter, laid out as a version-8 UUID (RFC 9562 §5.8). Unique within a process and, with
/// overwhelming probability, across restarts.
///
/// A value: its journal keeps it under the lock its appends take anyway (``RequestJournal``), so an id costs
/// no lock of its own.
struct EventIDGenerator {
    private let prefix: UInt64
    private var counter: UInt64 = 0

    init() {
        var generator = SystemRandomNumberGenerator()
        prefix = generator.next()
    }

    /// The next id.
    mutating func next() -> UUID {
        counter &+= 1
        let count = counter
        let high = (prefix & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_8000
        let low = (count & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }
}
