import Foundation

/// A fast 64-bit digest of bytes and their count, for telling in memory whether a body is the same as one
/// seen before (an upstream answering the same again, a file still holding what was written).
///
/// Four independent lanes, each folding sixteen bytes at a time into one 128-bit product (wyhash's mixing
/// step), so the lanes' multiplications overlap: one multiplication per sixteen bytes (xxHash64's round takes
/// two per eight; the byte-at-a-time ``StableHash`` over a millisecond for a 542 KB body). Stable across runs,
/// but not a file format: nothing stores it. Not for security.
struct ContentDigest: Sendable, Hashable {
    /// The number of bytes digested.
    let count: Int
    /// The digest.
    let value: UInt64

    // Odd constants with bytes of 0x80 and above, so no eight bytes of ASCII text equal one (a word equal to its
    // key zeroes that product: wyhash's one weak input, 2⁻⁶⁴ for random bytes).
    private static let key0: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let key1: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let key2: UInt64 = 0xA076_1D64_78BD_642F
    private static let key3: UInt64 = 0xE703_7ED1_A0B4_28DB

    /// The digest of some bytes.
    init(_ data: Data) {
        self = data.withUnsafeBytes { ContentDigest($0) }
    }

    /// The digest of some bytes.
    init(_ bytes: UnsafeRawBufferPointer) {
        let (key0, key1, key2, key3) = (ContentDigest.key0, ContentDigest.key1, ContentDigest.key2, ContentDigest.key3)
        let count = bytes.count
        @inline(__always) func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (key0, key1, key2, key3)
        var offset = 0
        while offset + 64 <= count {
            lanes.0 = ContentDigest.mix(word(offset) ^ key0, word(offset + 8) ^ lanes.0)
            lanes.1 = ContentDigest.mix(word(offset + 16) ^ key1, word(offset + 24) ^ lanes.1)
            lanes.2 = ContentDigest.mix(word(offset + 32) ^ key2, word(offset + 40) ^ lanes.2)
            lanes.3 = ContentDigest.mix(word(offset + 48) ^ key3, word(offset + 56) ^ lanes.3)
            offset += 64
        }
        var value = ContentDigest.mix(lanes.0 ^ key1, lanes.1 ^ key2)
        value = ContentDigest.mix(value ^ lanes.2, lanes.3 ^ key3)
        while offset + 8 <= count {
            value = ContentDigest.mix(word(offset) ^ key0, value ^ key1)
            offset += 8
        }
        var last: UInt64 = 0
        var shift: UInt64 = 0
        while offset < count {
            last |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        value = ContentDigest.mix(last ^ key2, value ^ UInt64(count) ^ key3)
        // A final avalanche, so nearby inputs differ in every bit.
        value ^= value >> 33
        value = value &* ContentDigest.key1
        value ^= value >> 29
        self.count = count
        self.value = value
    }

    /// The high and low halves of a 128-bit product folded together: wyhash's mixing step, one multiplication
    /// for sixteen bytes.
    @inline(__always) private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
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
