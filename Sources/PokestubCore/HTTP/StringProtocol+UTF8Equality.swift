import Foundation

extension StringProtocol {
    /// Whether this text and `other` are the same UTF-8 bytes.
    ///
    /// This is the equality WireMock's Java `String.equals` gives to URLs, header names and `equalTo` values;
    /// `==` on Swift strings compares canonical equivalence instead (a precomposed "é" equals "e" and a
    /// combining accent). The contiguous bytes of native strings are compared with `memcmp`:
    /// `utf8.elementsEqual` steps two `String.Index`es a byte at a time, about 1,200 instructions for a
    /// 16-byte path, and matching compares paths, header names and query values on every request.
    func hasSameUTF8(as other: some StringProtocol) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        let compared: Bool?? = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                count == 0 || memcmp(mine.baseAddress!, theirs.baseAddress!, count) == 0
            }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}
