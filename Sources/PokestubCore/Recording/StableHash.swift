import Foundation

/// A 64-bit FNV-1a hash: stable across runs, platforms and Swift versions (unlike `Hasher`), for file
/// names and change detection. Not for security.
struct StableHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Feeds bytes.
    mutating func combine<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer {
                value ^= UInt64(byte)
                value = value &* 0x100_0000_01b3
            }
        }
        guard done == nil else { return }
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
    }

    /// Feeds the bytes of `Data` through its contiguous storage (its iterator is slow).
    mutating func combine(_ data: Data) {
        data.withUnsafeBytes { buffer in
            for byte in buffer {
                value ^= UInt64(byte)
                value = value &* 0x100_0000_01b3
            }
        }
    }

    /// Feeds a string's UTF-8 with its length first, so `("ab", "c")` and `("a", "bc")` differ.
    mutating func combine(field text: String) {
        combine(String(text.utf8.count).utf8)
        combine([0x3A])
        combine(text.utf8)
    }

    /// The hash of some bytes.
    static func of<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash = StableHash()
        hash.combine(bytes)
        return hash.value
    }

    /// The first `digits` lower-case hex digits of a hash (at most 16).
    static func hex(_ value: UInt64, digits: Int = 8) -> String {
        let text = String(value, radix: 16)
        let padded = String(repeating: "0", count: max(0, 16 - text.count)) + text
        return String(padded.prefix(digits))
    }
}
