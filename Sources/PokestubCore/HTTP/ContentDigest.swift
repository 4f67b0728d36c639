import Foundation

/// A fast 64-bit digest of bytes and their count, for telling in memory whether a body is the same as one
/// seen before (an upstream answering the same again, a file still holding what was written).
///
/// Four independent lanes of xxHash64's round over 8-byte words, so it runs at memory speed (about 25 µs
/// for a 542 KB body here, where the byte-at-a-time ``StableHash`` takes over a millisecond). Stable across
/// runs, but not a file format: nothing stores it. Not for security.
struct ContentDigest: Sendable, Hashable {
    /// The number of bytes digested.
    let count: Int
    /// The digest.
    let value: UInt64

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    /// The digest of some bytes.
    init(_ data: Data) {
        self = data.withUnsafeBytes { ContentDigest($0) }
    }

    /// The digest of some bytes.
    init(_ bytes: UnsafeRawBufferPointer) {
        let (prime1, prime2) = (ContentDigest.prime1, ContentDigest.prime2)
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1 &+ prime2, prime2, 0, 0 &- prime1)
        @inline(__always) func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = lane &+ word &* prime2
            return ((mixed << 31) | (mixed >> 33)) &* prime1
        }
        let count = bytes.count
        var offset = 0
        while offset + 32 <= count {
            lanes.0 = mix(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lanes.1 = mix(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lanes.2 = mix(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lanes.3 = mix(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var value = (mix(lanes.0, lanes.1 ^ 0x01) ^ mix(lanes.2, lanes.3 ^ 0x02)) &+ UInt64(count)
        while offset < count {
            value = mix(value, UInt64(bytes[offset]))
            offset += 1
        }
        // A final avalanche, so nearby inputs differ in every bit.
        value ^= value >> 33
        value = value &* prime2
        value ^= value >> 29
        self.count = count
        self.value = value
    }

    /// The digest of several byte sequences, each with its length, so `("ab", "c")` and `("a", "bc")` differ.
    init(_ parts: [Data]) {
        var combined = StableHash()
        var total = 0
        for part in parts {
            let digest = ContentDigest(part)
            total += digest.count
            withUnsafeBytes(of: digest.count.littleEndian) { combined.combine($0) }
            withUnsafeBytes(of: digest.value.littleEndian) { combined.combine($0) }
        }
        count = total
        value = combined.value
    }
}
