import Foundation

/// The upstream base URLs of a ``LinkRewriter`` compiled for one target base URL: each base and its JSON-escaped
/// form (`https:\/\/pokeapi.co`) as needles, their replacements, and what the scan needs to skip bytes that
/// start no needle. Compiled once per set of bases and target (``ServerInfo/Serving/linkPatterns`` holds the
/// daemon's own) and read by any number of threads, so a small body costs little more than its scan.
final class LinkPatterns: Sendable {
    /// The base URLs replaced, without trailing `/`, in the order their needles are tried.
    let bases: [String]
    /// The base URL put instead, without trailing `/`.
    let target: String
    /// Every needle followed by its replacement, so the scan reads them through one raw pointer.
    private let arena: [UInt8]
    private let spans: [Span]
    /// Whether a byte starts a needle, by its value (256 entries).
    private let firstBytes: [Bool]
    private let candidates: Candidates

    /// Compiles `bases` for `target`; with no base that differs from `target` there is nothing to replace.
    ///
    /// - Parameters:
    ///   - bases: Base URLs to replace, without trailing `/`; empty ones and `target` itself are skipped.
    ///   - target: The base URL to put instead, without trailing `/`.
    init(bases: [String], target: String) {
        var patterns: [(needle: [UInt8], replacement: [UInt8])] = []
        let replacement = Array(target.utf8)
        for base in bases where base != target && !base.isEmpty {
            let needle = Array(base.utf8)
            patterns.append((needle, replacement))
            let escaped = LinkRewriter.escapingSlashes(needle)
            if escaped != needle { patterns.append((escaped, LinkRewriter.escapingSlashes(replacement))) }
        }
        self.bases = bases
        self.target = target
        arena = patterns.flatMap { $0.needle + $0.replacement }
        var spans: [Span] = []
        var offset = 0
        for pattern in patterns {
            spans.append(Span(needle: pattern.needle, at: offset, replacementLength: pattern.replacement.count))
            offset += pattern.needle.count + pattern.replacement.count
        }
        self.spans = spans
        var firstBytes = [Bool](repeating: false, count: 256)
        for span in spans { firstBytes[Int(span.first)] = true }
        self.firstBytes = firstBytes
        // The bytes every needle starts with (`http` for http and https base URLs), up to eight.
        var common = patterns.first?.needle.prefix(8) ?? []
        for pattern in patterns.dropFirst() {
            common = common.prefix(zip(common, pattern.needle).prefix { $0 == $1 }.count)
        }
        candidates = Candidates(common: Array(common))
    }

    /// Replaces the bases in bytes, in one pass: a body without a link is read once and not copied.
    ///
    /// - Parameter data: The body.
    /// - Returns: The new bytes, or `nil` when nothing was replaced.
    func rewrite(_ data: Data) -> Data? {
        guard !spans.isEmpty else { return nil }
        return data.withUnsafeBytes { bytes in
            arena.withUnsafeBufferPointer { arena in
                spans.withUnsafeBufferPointer { spans in
                    firstBytes.withUnsafeBufferPointer { firstBytes in
                        replaced(in: bytes, arena: arena.baseAddress!, spans: spans, table: firstBytes.baseAddress!)
                    }
                }
            }
        }
    }

    /// One pattern: where its needle and replacement lie in the arena, and the needle's first eight bytes
    /// (fewer for a shorter one) as one little-endian word with the mask of the bytes that word holds.
    private struct Span {
        var needle: Int
        var needleLength: Int
        var replacement: Int
        var replacementLength: Int
        var first: UInt8
        var prefix: UInt64
        var mask: UInt64

        init(needle bytes: [UInt8], at offset: Int, replacementLength: Int) {
            needle = offset
            needleLength = bytes.count
            replacement = offset + bytes.count
            self.replacementLength = replacementLength
            first = bytes.first ?? 0
            (prefix, mask) = LinkPatterns.prefixWord(of: bytes)
        }
    }

    /// The first eight bytes of `bytes` (fewer for a shorter one) as one little-endian word, and the mask of
    /// the bytes that word holds: what an eight-byte load from a candidate is compared with.
    private static func prefixWord(of bytes: [UInt8]) -> (prefix: UInt64, mask: UInt64) {
        var prefix: UInt64 = 0
        var mask: UInt64 = 0
        for index in 0..<min(8, bytes.count) {
            prefix |= UInt64(bytes[index]) << (8 * UInt64(index))
            mask |= 0xFF << (8 * UInt64(index))
        }
        return (prefix, mask)
    }

    /// Where a needle may start: the first two bytes all needles share, tested sixteen offsets at a time; the
    /// first byte alone with `memchr` when the needles share only that.
    private struct Candidates: Sendable {
        /// How many of the shared bytes the vector test checks: two, one (a needle of one byte), or none
        /// (the needles' first bytes differ, and the 256-entry table is read byte by byte instead).
        var checked: Int
        var first: UInt8
        var second: UInt8
        /// The first bytes all patterns share (up to eight) as a little-endian word, and the mask of the bytes
        /// it holds: a candidate whose word differs there is no pattern's.
        var sharedPrefix: UInt64
        var sharedMask: UInt64

        init(common: [UInt8]) {
            checked = min(2, common.count)
            first = common.first ?? 0
            second = common.count > 1 ? common[1] : 0
            (sharedPrefix, sharedMask) = LinkPatterns.prefixWord(of: common)
        }

        /// The offset of the next place at or after `index` where the checked shared bytes start, or `nil`;
        /// with no shared bytes, of the next byte some needle starts with (`table`).
        ///
        /// Sixteen offsets at a time: the sixteen bytes at `index` compared with the first shared byte and the
        /// sixteen one on with the second (`SIMD16`, one vector compare each), so a stretch without the pair
        /// costs a few instructions per sixteen bytes and no call per first byte (a PokeAPI body has thousands
        /// of `h`s, a few hundred `ht`s); the first lane that has the pair is read off the compare's result. In the
        /// last few bytes, where the vectors would run over the end, the bytes are tested one by one.
        @inline(__always)
        func next(in start: UnsafeRawPointer, from index: Int, count: Int, table: UnsafePointer<Bool>) -> Int? {
            var index = index
            guard checked > 0 else {
                while index < count {
                    if table[Int(start.load(fromByteOffset: index, as: UInt8.self))] { return index }
                    index += 1
                }
                return nil
            }
            if checked == 1 {
                guard let found = memchr(start + index, Int32(first), count - index) else { return nil }
                return start.distance(to: UnsafeRawPointer(found))
            }
            do {
                let firsts = SIMD16<UInt8>(repeating: first)
                let seconds = SIMD16<UInt8>(repeating: second)
                while index &+ 17 <= count {
                    let here = start.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                    let next = start.loadUnaligned(fromByteOffset: index &+ 1, as: SIMD16<UInt8>.self)
                    let pairs = (here .== firsts) .& (next .== seconds)
                    if any(pairs) {
                        // The first lane holding the pair: each lane 1 or 0, read as two little-endian words.
                        let lanes = unsafeBitCast(
                            SIMD16<UInt8>(repeating: 0).replacing(with: 1, where: pairs), to: SIMD2<UInt64>.self)
                        let low = UInt64(littleEndian: lanes[0])
                        let high = UInt64(littleEndian: lanes[1])
                        return index &+ (low != 0 ? low.trailingZeroBitCount : 64 &+ high.trailingZeroBitCount) / 8
                    }
                    index &+= 16
                }
            }
            while index < count {
                if start.load(fromByteOffset: index, as: UInt8.self) == first,
                    index &+ 1 == count || start.load(fromByteOffset: index &+ 1, as: UInt8.self) == second
                {
                    return index
                }
                index &+= 1
            }
            return nil
        }
    }

    /// The body's one pass: ``Candidates/next(in:from:count:table:)`` finds each place the needles' shared
    /// first bytes occur (skipping eight bytes per step elsewhere), the eight bytes from there, loaded as one
    /// word, rule out most candidates by the bytes all patterns share and most patterns by their own first
    /// eight, `memcmp` compares the rest of those that remain, and the bytes between matches go into one
    /// malloc'd buffer with `memcpy`, which becomes the `Data` without a copy. Nothing is allocated until the
    /// first match. Horspool's rule, which skips ahead by the byte under the needle's end, measured slower than a
    /// scan for the first byte, since each step waits for the load before it.
    private func replaced(
        in bytes: UnsafeRawBufferPointer, arena: UnsafePointer<UInt8>, spans: UnsafeBufferPointer<Span>,
        table: UnsafePointer<Bool>
    ) -> Data? {
        guard let start = bytes.baseAddress else { return nil }
        let candidates = self.candidates
        let count = bytes.count
        var output: UnsafeMutableRawPointer?
        var capacity = 0
        var written = 0
        var copiedUpTo = 0
        var index = 0
        while index < count {
            guard let found = candidates.next(in: start, from: index, count: count, table: table) else { break }
            index = found
            let byte = start.load(fromByteOffset: index, as: UInt8.self)
            // The eight bytes from here, when the body has them; near its end each pattern is compared whole.
            let word =
                index + 8 <= count
                ? UInt64(littleEndian: start.loadUnaligned(fromByteOffset: index, as: UInt64.self)) : nil
            if let word, word & candidates.sharedMask != candidates.sharedPrefix {
                index += 1
                continue
            }
            var matched: Span?
            for span in spans where span.first == byte && index + span.needleLength <= count {
                if let word {
                    guard word & span.mask == span.prefix else { continue }
                    let rest = span.needleLength - 8
                    guard rest <= 0 || memcmp(start + index + 8, arena + span.needle + 8, rest) == 0 else { continue }
                } else {
                    guard memcmp(start + index, arena + span.needle, span.needleLength) == 0 else { continue }
                }
                let end = index + span.needleLength
                if end == count || LinkPatterns.isBoundary(bytes[end]) {
                    matched = span
                    break
                }
            }
            guard let matched else {
                index += 1
                continue
            }
            let needed = written + (index - copiedUpTo) + matched.replacementLength
            if needed > capacity {
                capacity = max(needed, capacity == 0 ? count + count / 8 : capacity * 2)
                guard let grown = realloc(output, capacity) else {
                    free(output)
                    return nil
                }
                output = grown
            }
            memcpy(output! + written, start + copiedUpTo, index - copiedUpTo)
            written += index - copiedUpTo
            memcpy(output! + written, arena + matched.replacement, matched.replacementLength)
            written += matched.replacementLength
            index += matched.needleLength
            copiedUpTo = index
        }
        guard var output else { return nil }
        let rest = count - copiedUpTo
        if written + rest > capacity {
            guard let grown = realloc(output, written + rest) else {
                free(output)
                return nil
            }
            output = grown
        }
        memcpy(output + written, start + copiedUpTo, rest)
        return Data(bytesNoCopy: output, count: written + rest, deallocator: .free)
    }

    /// Whether a byte may follow a base URL for it to be a link to that host (not `https://pokeapi.co.evil`):
    /// one of `/"?#'\ <>),]}`, a space, CR, LF or tab.
    private static func isBoundary(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "\""), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "'"),
            UInt8(ascii: "\\"), UInt8(ascii: " "), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ")"),
            UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: "]"),
            UInt8(ascii: "}"):
            return true
        default:
            return false
        }
    }
}
