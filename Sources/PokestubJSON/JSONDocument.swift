import Foundation

/// A parsed JSON text held compactly and read in place: what matching reads a request body through, instead of
/// building a ``JSONValue`` graph of it. ``parse(_:)-(Data)`` makes one, and its ``root`` ``Node`` reads it
/// (`document.root.member(named: "id")?.number`).
///
/// A document is three blocks of memory (``MappedBuffer``): a copy of the source bytes, a *tape* of 8-byte
/// entries, one per scalar and per container (two for a number that does not fit in 60 bits), and the decoded
/// text of strings written with escapes. Strings without escapes are read from the source in place. An object
/// whose member names are not in order in the source, or that repeats a name, has an index after its members:
/// the tape positions of its member names in ``JSONValue``'s key order, two to an entry. At most 8 bytes of
/// tape are written for each 2 bytes of source (`[1,1,1]`); a PokeAPI answer takes about one byte of tape
/// per byte, so a document costs about twice its text (see ``costBound(sourceBytes:)``).
///
/// Parsing is ``JSONValue/parse(_:)-(Data)``'s, the same parser, with the rules of swift-corelibs-foundation's
/// `JSONSerialization` and pokestub's trailing-comma rule: the same texts are accepted, numbers are integers
/// or doubles by the same rules, a repeated member name keeps its first spelling and its last value (names
/// are the same by Swift's `String` equality, canonical equivalence), and strings decode the same way.
///
/// Immutable once parsed, so `Sendable`.
package final class JSONDocument: @unchecked Sendable {
    /// The source bytes, after any conversion to UTF-8 and without a leading byte order mark.
    let source: MappedBuffer
    /// The number of source bytes.
    package let sourceCount: Int
    /// The tape.
    let tape: MappedBuffer
    /// Decoded strings, or `nil` when no string has an escape.
    let decoded: MappedBuffer?
    /// The bytes the document holds in memory: source, tape and decoded strings as written.
    package let residentBytes: Int

    init(source: MappedBuffer, sourceCount: Int, tape: MappedBuffer, decoded: MappedBuffer?, residentBytes: Int) {
        self.source = source
        self.sourceCount = sourceCount
        self.tape = tape
        self.decoded = decoded
        self.residentBytes = residentBytes
    }

    /// The top-level value.
    package var root: Node { Node(document: self, position: 0) }

    /// The most memory a document parsed from `sourceBytes` bytes of text holds: the source copy and the
    /// tape, at most 8 bytes for every 2 bytes of text (decoded strings are shorter than their text and
    /// stand in for tape entries their text would otherwise need).
    package static func costBound(sourceBytes: Int) -> Int {
        5 * sourceBytes + 64
    }

    /// Whether the source bytes equal `text`'s UTF-8 (a memo check: was this text parsed already?).
    package func hasSource(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            bytes.count == sourceCount
                && (sourceCount == 0 || memcmp(source.base, bytes.baseAddress!, sourceCount) == 0)
        }
    }

    // MARK: Tape entries

    /// An entry's kind: its top 4 bits.
    enum Tag: UInt64 {
        case null = 0, `false`, `true`
        /// An integer in the low 60 bits, two's complement.
        case smallInteger
        /// An `Int64` in the next entry.
        case integer
        /// A `Double`'s bits in the next entry.
        case double
        /// A string in the source: offset (30 bits) and length (30 bits).
        case sourceString
        /// A string in ``decoded``: offset and length as for ``sourceString``.
        case decodedString
        /// An array: end position (30 bits), element count (28 bits), 2 bits unused.
        case array
        /// An object: end position, member count, whether its members are in key order in the source with no
        /// repeated name (no index), and whether every member name is ASCII.
        case object
        /// A number beyond `Double`'s range, its source offset in the low bits: kept while parsing, as a
        /// later member of the same name may replace it; a document that still holds one is refused.
        case unrepresentable
    }

    static func entry(_ tag: Tag, _ payload: UInt64) -> UInt64 { tag.rawValue << 60 | payload }

    @inline(__always) func entry(at position: Int) -> UInt64 {
        tape.base.load(fromByteOffset: position &* 8, as: UInt64.self)
    }

    @inline(__always) func tag(at position: Int) -> Tag {
        Tag(rawValue: entry(at: position) >> 60)!
    }

    /// The number of entries the value at `position` takes.
    @inline(__always) func length(at position: Int) -> Int {
        JSONDocument.length(of: entry(at: position), at: position)
    }

    /// The number of entries a value whose first entry is `entry`, at `position`, takes: two for a number, one
    /// for another scalar, and a container's up to the end its entry records.
    @inline(__always) static func length(of entry: UInt64, at position: Int) -> Int {
        switch entry >> 60 {
        case Tag.integer.rawValue, Tag.double.rawValue: return 2
        case Tag.array.rawValue, Tag.object.rawValue:
            return Int(truncatingIfNeeded: (entry >> 30) & 0x3FFF_FFFF) - position
        default: return 1
        }
    }

    /// The UTF-8 bytes of the string entry at `position`.
    @inline(__always) func stringBytes(at position: Int) -> UnsafeRawBufferPointer {
        let entry = entry(at: position)
        let offset = Int(truncatingIfNeeded: (entry >> 30) & 0x3FFF_FFFF)
        let count = Int(truncatingIfNeeded: entry & 0x3FFF_FFFF)
        let base = entry >> 60 == Tag.sourceString.rawValue ? source.base : decoded!.base
        return UnsafeRawBufferPointer(start: base + offset, count: count)
    }

    func string(at position: Int) -> String {
        String(decoding: stringBytes(at: position), as: UTF8.self)
    }

    static let sortedFlag: UInt64 = 2
    static let asciiKeysFlag: UInt64 = 1
}
