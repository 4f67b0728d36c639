import Foundation

/// Where a JSON string written in raw bytes ends, found with `memchr`: the one rule for skipping a string
/// that every scan of raw JSON text uses (``JSONText``, ``TextPosition``, and the loader's comment scan).
///
/// The scans that run over every mapping file as it loads (comments, trailing commas) spend most of their
/// bytes inside strings: URLs and names in PokeAPI's answers. Stepping through a string a byte at a time to
/// its closing quote showed in profiles of loading the shipped stubs; `memchr` finds each candidate quote, and the run of
/// backslashes before it says whether it is escaped (an odd number) or closes the string (RFC 8259 §7).
package enum JSONStringSkip {
    /// The position just after the string whose opening quote is at `openingQuote`, or `bytes.count` when the
    /// string is not closed.
    package static func end(of bytes: UnsafeRawBufferPointer, openingQuote: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var index = openingQuote + 1
        while index < bytes.count {
            guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index) else {
                return bytes.count
            }
            let quote = base.distance(to: UnsafeRawPointer(found))
            var backslashes = 0
            while quote - backslashes - 1 > openingQuote, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return quote + 1 }
            index = quote + 1
        }
        return bytes.count
    }
}
