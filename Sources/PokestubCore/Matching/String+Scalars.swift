import Foundation

extension String {
    /// Whether `text` occurs in this string as a run of the same Unicode scalars, compared as UTF-8 bytes
    /// (never by Swift's canonical equivalence, which `contains` on `String` follows). UTF-8 is
    /// self-synchronising, so a byte match of two valid strings starts and ends on scalar boundaries. An empty
    /// `text` occurs everywhere.
    func containsScalars(_ text: String) -> Bool {
        var haystack = self
        var needle = text
        return haystack.withUTF8 { hay in
            needle.withUTF8 { pin in
                guard !pin.isEmpty else { return true }
                guard pin.count <= hay.count else { return false }
                let first = pin[0]
                var start = 0
                let last = hay.count - pin.count
                while start <= last {
                    if hay[start] == first && memcmp(hay.baseAddress! + start, pin.baseAddress!, pin.count) == 0 {
                        return true
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
