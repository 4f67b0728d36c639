import Foundation

extension UUID {
    /// Reads a stub id as `UUID(uuidString:)` does, without its cost in the common case: 36 ASCII bytes, hex
    /// digits of either case in groups of 8-4-4-4-12 joined by `-`, are read here; any other text is left to
    /// `UUID(uuidString:)`, so what is accepted, and as what, stays Foundation's rule. Foundation reads with
    /// `sscanf`: about 8,800 instructions an id, 4% of the instructions of starting with the shipped stubs.
    ///
    /// - Parameter text: The id as written, e.g. `c4b6c1d2-0a1b-4c2d-8e3f-0123456789ab`.
    /// - Returns: The id, or `nil` when Foundation reads none.
    init?(stubIDText text: String) {
        var bytes: (UInt64, UInt64) = (0, 0)
        var count = 0
        var read = true
        for byte in text.utf8 {
            if count == 8 || count == 13 || count == 18 || count == 23 {
                guard byte == UInt8(ascii: "-") else {
                    read = false
                    break
                }
            } else if count < 36, let digit = PercentDecoding.hexValue(byte) {
                if count < 19 {
                    bytes.0 = bytes.0 << 4 | UInt64(digit)
                } else {
                    bytes.1 = bytes.1 << 4 | UInt64(digit)
                }
            } else {
                read = false
                break
            }
            count += 1
        }
        guard read, count == 36 else {
            guard let parsed = UUID(uuidString: text) else { return nil }
            self = parsed
            return
        }
        let (high, low) = bytes
        self.init(
            uuid: (
                UInt8(truncatingIfNeeded: high >> 56), UInt8(truncatingIfNeeded: high >> 48),
                UInt8(truncatingIfNeeded: high >> 40), UInt8(truncatingIfNeeded: high >> 32),
                UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
                UInt8(truncatingIfNeeded: high >> 8), UInt8(truncatingIfNeeded: high),
                UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48),
                UInt8(truncatingIfNeeded: low >> 40), UInt8(truncatingIfNeeded: low >> 32),
                UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
                UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low)
            ))
    }

    /// The id as `uuidString.lowercased()` writes it (`c4b6c1d2-0a1b-4c2d-8e3f-0123456789ab`), made without
    /// `snprintf` and a second pass to lower the case.
    var lowercasedText: String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digits.utf8Start[Int(byte >> 4)]
                    text[position + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}
