import Foundation

extension JSONDocument {
    /// Parses JSON text into a document, with ``JSONValue/parse(_:)-(Data)``'s semantics.
    ///
    /// - Parameter data: JSON text (RFC 8259), UTF-8 or, as Foundation reads it, UTF-16 or UTF-32 told by a
    ///   byte order mark or by its zero bytes. Top-level scalars are accepted; a comma before `]` or `}` is not.
    ///   At most 512 MiB (larger texts are refused) and 512 levels of nesting.
    /// - Returns: The document.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line and column of the problem.
    package static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONDocument {
        try withUTF8(of: data) { parsed($0, document: true) }.get().document!
    }

    /// Parses JSON text given as a string (the request body matchers see).
    ///
    /// - Parameter text: JSON text.
    /// - Returns: The document.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line and column of the problem.
    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONDocument {
        try withUTF8(of: text) { parsed($0, document: true) }.get().document!
    }

    /// Parses JSON text into a ``JSONValue``: what ``JSONValue/parse(_:)-(Data)`` does. The parser reads the
    /// text in place and its tape is built into the value and let go, so no copy of the text is made.
    ///
    /// - Parameter data: JSON text, as for ``parse(_:)-(Data)``.
    /// - Returns: The value.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line and column of the problem.
    static func value(parsing data: Data) throws(JSONSyntaxError) -> JSONValue {
        try withUTF8(of: data) { parsed($0, document: false) }.get().value!
    }

    /// Parses JSON text given as a string into a ``JSONValue``.
    ///
    /// - Parameter text: JSON text.
    /// - Returns: The value.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line and column of the problem.
    static func value(parsing text: String) throws(JSONSyntaxError) -> JSONValue {
        try withUTF8(of: text) { parsed($0, document: false) }.get().value!
    }

    /// A parse's outcome: a document, or a value with no document kept.
    private struct Parsed {
        var document: JSONDocument?
        var value: JSONValue?
    }

    /// Calls `body` with the text as UTF-8 without a leading byte order mark, converting UTF-16 and UTF-32 as
    /// ``detectEncoding(_:)`` tells.
    private static func withUTF8(
        of data: Data, _ body: (UnsafeRawBufferPointer) -> Result<Parsed, JSONSyntaxError>
    ) -> Result<Parsed, JSONSyntaxError> {
        data.withUnsafeBytes { raw -> Result<Parsed, JSONSyntaxError> in
            let (encoding, skip) = detectEncoding(raw)
            if encoding == .utf8 { return body(UnsafeRawBufferPointer(rebasing: raw[skip...])) }
            guard var text = String(bytes: raw[skip...], encoding: encoding) else {
                return .failure(
                    JSONSyntaxError(
                        line: 1, column: 1, message: "invalid JSON: Cannot convert input string to valid utf8 input."))
            }
            return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
    }

    /// ``withUTF8(of:_:)-(Data,_)`` for a string: its own UTF-8 when that needs no conversion.
    private static func withUTF8(
        of text: String, _ body: (UnsafeRawBufferPointer) -> Result<Parsed, JSONSyntaxError>
    ) -> Result<Parsed, JSONSyntaxError> {
        var text = text
        let result = text.withUTF8 { bytes -> Result<Parsed, JSONSyntaxError>? in
            let raw = UnsafeRawBufferPointer(bytes)
            guard detectEncoding(raw) == (.utf8, 0) else { return nil }
            return body(raw)
        }
        return result ?? withUTF8(of: Data(text.utf8), body)
    }

    /// ``parseUTF8(_:)`` or ``valueUTF8(_:)``'s outcome, for closures that cannot throw a typed error.
    private static func parsed(_ bytes: UnsafeRawBufferPointer, document: Bool) -> Result<Parsed, JSONSyntaxError> {
        do {
            if document { return .success(Parsed(document: try parseUTF8(bytes))) }
            return .success(Parsed(value: try valueUTF8(bytes)))
        } catch {
            return .failure(error)
        }
    }

    /// The largest text parsed: offsets and tape positions take 30 bits.
    package static let maximumSourceBytes = 512 << 20

    /// Parses UTF-8 text into a document that keeps a copy of it.
    private static func parseUTF8(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONDocument {
        try checkSize(bytes)
        let invalidUTF8 = firstInvalidUTF8(bytes)
        let source = MappedBuffer(size: bytes.count)
        if bytes.count > 0 { source.base.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        let sourceBytes = UnsafeRawBufferPointer(start: source.base, count: bytes.count)
        let (tape, parser) = try parseTape(sourceBytes, indexesObjects: true, invalidUTF8: invalidUTF8)
        let document = JSONDocument(
            source: source, sourceCount: bytes.count, tape: tape, decoded: parser.decoded,
            residentBytes: bytes.count + 8 * parser.used + parser.decodedCount)
        if parser.unrepresentable != nil, let offset = document.root.firstUnrepresentableNumber {
            throw unrepresentableError(at: offset, in: bytes)
        }
        if let comma = parser.trailingComma { throw trailingCommaError(at: comma, in: bytes) }
        return document
    }

    /// Parses UTF-8 text into a value: the tape points into `bytes`, is read once and let go.
    private static func valueUTF8(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        try checkSize(bytes)
        let invalidUTF8 = firstInvalidUTF8(bytes)
        // A dictionary needs no index: assigned in source order it keeps a repeated name's first spelling and
        // last value by itself.
        var (tape, parser) = try parseTape(bytes, indexesObjects: false, invalidUTF8: invalidUTF8)
        if parser.unrepresentable != nil {
            // A number beyond `Double`'s range is refused only if no later member of the same name replaces it:
            // read again with each object's index, which holds only the members that stay.
            (tape, parser) = try parseTape(bytes, indexesObjects: true, invalidUTF8: invalidUTF8)
        }
        var builder = ValueBuilder(
            tape: UnsafePointer(tape.base.assumingMemoryBound(to: UInt64.self)), source: bytes.baseAddress,
            decoded: parser.decoded.map { UnsafeRawPointer($0.base) })
        let value = withExtendedLifetime((tape, parser.decoded)) { builder.value(at: 0) }
        if let offset = builder.unrepresentable { throw unrepresentableError(at: offset, in: bytes) }
        if let comma = parser.trailingComma { throw trailingCommaError(at: comma, in: bytes) }
        return value
    }

    /// Refuses a text larger than ``maximumSourceBytes``.
    private static func checkSize(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
        guard bytes.count <= maximumSourceBytes else {
            throw JSONSyntaxError(line: nil, column: nil, message: "invalid JSON: text larger than 512 MiB")
        }
    }

    /// Runs the parser over `bytes`, which the tape's strings point into; `indexesObjects` as ``Parser`` has it.
    ///
    /// A text that is not well-formed UTF-8 (`invalidUTF8`: the offset of its first ill-formed sequence, from
    /// ``firstInvalidUTF8(_:)``) is refused there, unless the parser meets a syntax error before it: the first
    /// problem in reading order is the one named, as Foundation names it, checking each string as it reads it.
    /// The parser reads bytes, not characters, so an ill-formed sequence only decides which error is named.
    private static func parseTape(
        _ bytes: UnsafeRawBufferPointer, indexesObjects: Bool, invalidUTF8: Int?
    ) throws(JSONSyntaxError) -> (MappedBuffer, Parser) {
        // A value takes at least one byte and at most two entries, and then only when it takes three bytes; an
        // object's index takes half an entry per member of at least four bytes.
        let tape = MappedBuffer(size: 8 * (bytes.count + 4))
        var parser = Parser(
            bytes: bytes, tape: tape.base.assumingMemoryBound(to: UInt64.self), indexesObjects: indexesObjects)
        do {
            try parser.parseDocument()
        } catch {
            if let invalidUTF8, error.offset >= invalidUTF8 { throw invalidUTF8Error(at: invalidUTF8, in: bytes) }
            throw syntaxError(error.message, at: error.offset, in: bytes)
        }
        if let invalidUTF8 { throw invalidUTF8Error(at: invalidUTF8, in: bytes) }
        return (tape, parser)
    }

    /// The error for an ill-formed UTF-8 sequence at `offset`.
    private static func invalidUTF8Error(at offset: Int, in bytes: UnsafeRawBufferPointer) -> JSONSyntaxError {
        syntaxError("Invalid UTF-8 sequence around character \(offset).", at: offset, in: bytes)
    }

    /// The error for a comma before `]` or `}` at `offset`: refused after any other problem of the text, as
    /// pokestub refused it after Foundation's parser read the text.
    private static func trailingCommaError(at offset: Int, in bytes: UnsafeRawBufferPointer) -> JSONSyntaxError {
        syntaxError("Trailing comma around character \(offset).", at: offset, in: bytes)
    }

    /// The error for a number beyond `Double`'s range at `offset`.
    private static func unrepresentableError(at offset: Int, in bytes: UnsafeRawBufferPointer) -> JSONSyntaxError {
        let text = String(
            decoding: bytes[offset...].prefix { !isWhitespace($0) && !",]}".utf8.contains($0) }, as: UTF8.self)
        return syntaxError("Number \(text) is not representable in Swift.", at: offset, in: bytes)
    }

    private static func syntaxError(
        _ message: String, at offset: Int, in bytes: UnsafeRawBufferPointer
    )
        -> JSONSyntaxError
    {
        var line = 1
        var column = 1
        for index in 0..<min(offset, bytes.count) {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return JSONSyntaxError(line: line, column: column, message: "invalid JSON: \(message)")
    }

    /// Foundation's `JSONSerialization.detectEncoding`: a byte order mark, else the pattern of zero bytes in
    /// the first four (or two) bytes; the bytes to skip.
    static func detectEncoding(_ bytes: UnsafeRawBufferPointer) -> (String.Encoding, Int) {
        if bytes.count >= 4 {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
            if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BigEndian, 4) }
            if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LittleEndian, 4) }
            if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
            if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
            switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
            case (0, 0, 0, _): return (.utf32BigEndian, 0)
            case (_, 0, 0, 0): return (.utf32LittleEndian, 0)
            case (0, _, 0, _): return (.utf16BigEndian, 0)
            case (_, 0, _, 0): return (.utf16LittleEndian, 0)
            default: break
            }
        } else if bytes.count >= 2 {
            switch (bytes[0], bytes[1]) {
            case (0, _): return (.utf16BigEndian, 0)
            case (_, 0): return (.utf16LittleEndian, 0)
            default: break
            }
        }
        return (.utf8, 0)
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence (Unicode 15 table 3-7),
    /// or `nil`. Checking the whole text once is the same as Foundation checking each string: a byte above
    /// 0x7F outside a string is refused anyway.
    static func firstInvalidUTF8(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                // Eight ASCII bytes at a time.
                index += 1
                while index + 8 <= count,
                    bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                continue
            }
            var length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= low, second <= high else { return index }
            for next in 2..<length where bytes[index + next] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }

    /// A problem found while parsing, at a byte offset.
    struct ParseError: Error {
        var message: String
        var offset: Int
    }

    /// The parser: swift-corelibs-foundation's `JSONParser` (the grammar, the nesting limit, the number rules
    /// of `NSNumber.fromJSONNumber`), writing tape entries instead of values.
    struct Parser {
        let bytes: UnsafeRawBufferPointer
        let tape: UnsafeMutablePointer<UInt64>
        /// Whether an object whose names are out of order or repeated gets an index (what a document's readers
        /// need); without, every object is marked in order and its members, repeats included, are counted
        /// (what ``ValueBuilder`` needs).
        let indexesObjects: Bool
        /// Tape entries written.
        var used = 0
        var index = 0
        var depth = 0
        /// Decoded strings, made at the first escape.
        var decoded: MappedBuffer?
        var decodedCount = 0
        /// The offset of the first number Foundation cannot represent (beyond `Double`'s range), if any.
        var unrepresentable: Int?
        /// The offset of the first comma before `]` or `}`, if any (see ``noteTrailingComma()``).
        var trailingComma: Int?

        init(bytes: UnsafeRawBufferPointer, tape: UnsafeMutablePointer<UInt64>, indexesObjects: Bool) {
            self.bytes = bytes
            self.tape = tape
            self.indexesObjects = indexesObjects
        }

        mutating func parseDocument() throws(ParseError) {
            try skipWhitespace()
            try parseValue()
            while index < bytes.count {
                guard JSONDocument.isWhitespace(bytes[index]) else { throw unexpected() }
                index += 1
            }
        }

        func unexpected() -> ParseError {
            ParseError(message: "Invalid value around character \(index).", offset: index)
        }

        var endOfText: ParseError {
            ParseError(message: "Unexpected end of file during JSON parse.", offset: bytes.count)
        }

        /// Skips whitespace and returns the next byte; the end of the text is an error.
        @discardableResult
        mutating func skipWhitespace() throws(ParseError) -> UInt8 {
            while index < bytes.count {
                let byte = bytes[index]
                if !JSONDocument.isWhitespace(byte) { return byte }
                index += 1
                // Indentation, eight spaces at a time.
                while index + 8 <= bytes.count,
                    bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) == 0x2020_2020_2020_2020
                {
                    index += 8
                }
            }
            throw endOfText
        }

        mutating func append(_ entry: UInt64) {
            tape[used] = entry
            used += 1
        }

        mutating func parseValue() throws(ParseError) {
            switch try skipWhitespace() {
            case UInt8(ascii: "\""): try parseString()
            case UInt8(ascii: "{"): try parseObject()
            case UInt8(ascii: "["): try parseArray()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                append(JSONDocument.entry(.true, 0))
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                append(JSONDocument.entry(.false, 0))
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                append(JSONDocument.entry(.null, 0))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try parseNumber()
            default:
                throw unexpected()
            }
        }

        mutating func expectLiteral(_ literal: StaticString) throws(ParseError) {
            let expected = UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            for byte in expected {
                guard index < bytes.count else { throw endOfText }
                guard bytes[index] == byte else { throw unexpected() }
                index += 1
            }
        }

        mutating func enter() throws(ParseError) {
            guard depth < 512 else {
                throw ParseError(
                    message: "Too many nested arrays or dictionaries around character \(index + 1).", offset: index)
            }
            depth += 1
        }

        mutating func parseArray() throws(ParseError) {
            try enter()
            let header = used
            append(0)
            index += 1
            var count = 0
            if try skipWhitespace() != UInt8(ascii: "]") {
                while true {
                    try parseValue()
                    count += 1
                    let next = try skipWhitespace()
                    index += 1
                    if next == UInt8(ascii: "]") { break }
                    guard next == UInt8(ascii: ",") else {
                        index -= 1
                        throw unexpected()
                    }
                    if try skipWhitespace() == UInt8(ascii: "]") {
                        noteTrailingComma()
                        index += 1
                        break
                    }
                }
            } else {
                index += 1
            }
            tape[header] = JSONDocument.entry(.array, UInt64(used) << 30 | UInt64(count) << 2)
            depth -= 1
        }

        /// Notes a comma before `]` or `}` (`index` is at the bracket), which Foundation accepts and pokestub
        /// refuses as Jackson does: only once the rest of the text parses, so that a later syntax error is the one
        /// reported, as when Foundation's parser read the text first; the first such comma is named.
        mutating func noteTrailingComma() {
            guard trailingComma == nil else { return }
            var comma = index - 1
            while comma > 0, bytes[comma] != UInt8(ascii: ",") { comma -= 1 }
            trailingComma = comma
        }

        mutating func parseObject() throws(ParseError) {
            try enter()
            let header = used
            append(0)
            index += 1
            var count = 0
            var asciiKeys = true
            if try skipWhitespace() != UInt8(ascii: "}") {
                while true {
                    guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
                    if try !parseString() { asciiKeys = false }
                    guard try skipWhitespace() == UInt8(ascii: ":") else { throw unexpected() }
                    index += 1
                    try parseValue()
                    count += 1
                    let next = try skipWhitespace()
                    index += 1
                    if next == UInt8(ascii: "}") { break }
                    guard next == UInt8(ascii: ",") else {
                        index -= 1
                        throw unexpected()
                    }
                    if try skipWhitespace() == UInt8(ascii: "}") {
                        noteTrailingComma()
                        index += 1
                        break
                    }
                }
            } else {
                index += 1
            }
            guard indexesObjects else {
                tape[header] = JSONDocument.entry(
                    .object, UInt64(used) << 30 | UInt64(count) << 2 | JSONDocument.sortedFlag)
                depth -= 1
                return
            }
            let (distinct, flags) = indexMembers(header: header, count: count, asciiKeys: asciiKeys)
            tape[header] = JSONDocument.entry(.object, UInt64(used) << 30 | UInt64(distinct) << 2 | flags)
            depth -= 1
        }

        /// Orders the `count` members written after `header` as ``JSONValue``'s keys sort, writing an index
        /// after them unless they are already in order with no name repeated; returns the number of distinct
        /// names and the header's flags.
        mutating func indexMembers(header: Int, count: Int, asciiKeys: Bool) -> (Int, UInt64) {
            let document = TapeReader(tape: tape, bytes: bytes, decoded: decoded?.base)
            var distinct = 0
            let indexStart = used
            if asciiKeys {
                var previous: Int?
                var inOrder = true
                var position = header + 1
                for _ in 0..<count {
                    if let previous, JSONDocument.compare(document.key(previous), document.key(position)) >= 0 {
                        inOrder = false
                        break
                    }
                    previous = position
                    position += 1 + document.length(at: position + 1)
                }
                if inOrder { return (count, JSONDocument.sortedFlag | JSONDocument.asciiKeysFlag) }
                // The index is sorted where it is written: no memory beyond the tape.
                (tape + indexStart).withMemoryRebound(to: UInt32.self, capacity: count) { index in
                    var keys = UnsafeMutableBufferPointer(start: index, count: count)
                    position = header + 1
                    for member in 0..<count {
                        keys[member] = UInt32(position)
                        position += 1 + document.length(at: position + 1)
                    }
                    // By name, then by position: the last of a repeated name keeps its value.
                    keys.sort { lhs, rhs in
                        let order = JSONDocument.compare(document.key(Int(lhs)), document.key(Int(rhs)))
                        return order != 0 ? order < 0 : lhs < rhs
                    }
                    for member in 0..<count {
                        if distinct > 0,
                            JSONDocument.compare(document.key(Int(keys[distinct - 1])), document.key(Int(keys[member])))
                                == 0
                        {
                            keys[distinct - 1] = keys[member]
                        } else {
                            keys[distinct] = keys[member]
                            distinct += 1
                        }
                    }
                }
            } else {
                // Names compare as Swift strings (canonical equivalence): a repeated name keeps its first
                // spelling and its last value, as a Swift dictionary assigned in order does.
                var firstOf: [String: Int] = [:]
                var names: [(name: String, key: Int)] = []
                var position = header + 1
                for _ in 0..<count {
                    let name = String(decoding: document.key(position), as: UTF8.self)
                    if let first = firstOf[name] {
                        tape[position] = tape[names[first].key]
                        names[first].key = position
                    } else {
                        firstOf[name] = names.count
                        names.append((name, position))
                    }
                    position += 1 + document.length(at: position + 1)
                }
                names.sort { $0.name < $1.name }
                distinct = names.count
                let index = UnsafeMutableRawPointer(tape + indexStart)
                for (member, entry) in names.enumerated() {
                    index.storeBytes(of: UInt32(entry.key), toByteOffset: member * 4, as: UInt32.self)
                }
            }
            used += (distinct + 1) / 2
            return (distinct, asciiKeys ? JSONDocument.asciiKeysFlag : 0)
        }

        /// Parses a string at its opening quote into a string entry; returns whether it is all ASCII.
        ///
        /// As Foundation builds a string from the pieces between escapes with `String(bytes:encoding: .utf8)`,
        /// which drops a leading byte order mark, a piece that starts with U+FEFF loses it.
        @discardableResult
        mutating func parseString() throws(ParseError) -> Bool {
            index += 1
            let start = index
            var ascii = true
            while true {
                // Eight bytes at a time while none of them ends a plain run.
                while index + 8 <= bytes.count,
                    !Parser.endsPlainRun(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                {
                    index += 8
                }
                guard index < bytes.count else { throw endOfText }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    var pieceStart = start
                    if JSONDocument.startsWithByteOrderMark(bytes, at: start, before: index) { pieceStart += 3 }
                    append(
                        JSONDocument.entry(.sourceString, UInt64(pieceStart) << 30 | UInt64(index - pieceStart)))
                    index += 1
                    return ascii
                }
                if byte == UInt8(ascii: "\\") {
                    return try parseEscapedString(from: start, ascii: ascii)
                }
                if byte < 0x20 {
                    throw ParseError(message: "Unescaped control character around character \(index).", offset: index)
                }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
        }

        /// Whether any of eight bytes is a quote, a backslash, a control character or not ASCII: a zero byte
        /// after `^` with the byte it is compared with, a byte below 0x20, a high bit (the "has zero byte" and
        /// "has less than" tests of https://graphics.stanford.edu/~seander/bithacks.html#ZeroInWord).
        @inline(__always) static func endsPlainRun(_ word: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let found =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                | word
            return found & 0x8080_8080_8080_8080 != 0
        }

        /// Continues a string at its first backslash, decoding it into ``decoded``.
        mutating func parseEscapedString(from start: Int, ascii: Bool) throws(ParseError) -> Bool {
            if decoded == nil { decoded = MappedBuffer(size: bytes.count) }
            let output = decoded!.base.assumingMemoryBound(to: UInt8.self)
            let outputStart = decodedCount
            var ascii = ascii
            var pieceStart = start
            func copyPiece(upTo end: Int) {
                var from = pieceStart
                if JSONDocument.startsWithByteOrderMark(bytes, at: from, before: end) { from += 3 }
                for offset in from..<max(from, end) {
                    output[decodedCount] = bytes[offset]
                    decodedCount += 1
                }
            }
            func put(_ scalar: Unicode.Scalar) {
                if !scalar.isASCII { ascii = false }
                for unit in UTF8.encode(scalar)! {
                    output[decodedCount] = unit
                    decodedCount += 1
                }
            }
            while true {
                guard index < bytes.count else { throw endOfText }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    copyPiece(upTo: index)
                    append(
                        JSONDocument.entry(
                            .decodedString, UInt64(outputStart) << 30 | UInt64(decodedCount - outputStart)))
                    index += 1
                    return ascii
                }
                if byte < 0x20 {
                    throw ParseError(message: "Unescaped control character around character \(index).", offset: index)
                }
                if byte >= 0x80 { ascii = false }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                copyPiece(upTo: index)
                index += 1
                guard index < bytes.count else { throw endOfText }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): put("\"")
                case UInt8(ascii: "\\"): put("\\")
                case UInt8(ascii: "/"): put("/")
                case UInt8(ascii: "b"): put("\u{08}")
                case UInt8(ascii: "f"): put("\u{0C}")
                case UInt8(ascii: "n"): put("\n")
                case UInt8(ascii: "r"): put("\r")
                case UInt8(ascii: "t"): put("\t")
                case UInt8(ascii: "u"): put(try parseUnicodeEscape())
                default:
                    throw ParseError(
                        message: "Invalid escape sequence around character \(index - 2).", offset: index - 1)
                }
                pieceStart = index
            }
        }

        /// The scalar of `\uXXXX` (and of a following `\uXXXX` low surrogate after a high one), `index` just
        /// after the `u`.
        mutating func parseUnicodeEscape() throws(ParseError) -> Unicode.Scalar {
            let high = try hexQuad()
            if high & 0xFC00 == 0xD800 {
                guard index + 2 <= bytes.count else { throw endOfText }
                guard bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw ParseError(message: "Unexpected end of file during string parse.", offset: index + 1)
                }
                index += 2
                let low = try hexQuad()
                guard low & 0xFC00 == 0xDC00 else {
                    throw ParseError(message: "Unexpected end of file during string parse.", offset: index - 1)
                }
                let value = (UInt32(high) - 0xD800) * 0x400 + (UInt32(low) - 0xDC00) + 0x10000
                guard let scalar = Unicode.Scalar(value) else {
                    throw ParseError(message: "Unable to convert hex escape sequence.", offset: index)
                }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw ParseError(message: "Unable to convert hex escape sequence.", offset: index)
            }
            return scalar
        }

        mutating func hexQuad() throws(ParseError) -> UInt16 {
            guard index + 4 <= bytes.count else { throw endOfText }
            var value: UInt16 = 0
            for offset in 0..<4 {
                let byte = bytes[index + offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                default: throw ParseError(message: "Invalid hex encoded sequence at \(index).", offset: index)
                }
                value = value << 4 | UInt16(digit)
            }
            index += 4
            return value
        }

        /// A number, by Foundation's grammar (it ends at whitespace, `,`, `]`, `}` or the end of the text).
        mutating func parseNumber() throws(ParseError) {
            enum Past { case operand, decimalPoint, exponent, exponentSign }
            let start = index
            var past = Past.operand
            var digitsSincePast = 0
            var leadingZero = false
            var plainInteger = true
            switch bytes[index] {
            case UInt8(ascii: "0"):
                digitsSincePast = 1
                leadingZero = true
            case UInt8(ascii: "-"): break
            default: digitsSincePast = 1
            }
            index += 1
            scan: while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "0"):
                    if leadingZero { throw numberError() }
                    if digitsSincePast == 0, past == .operand { leadingZero = true }
                    digitsSincePast += 1
                case UInt8(ascii: "1")...UInt8(ascii: "9"):
                    if leadingZero { throw numberError() }
                    digitsSincePast += 1
                case UInt8(ascii: "."):
                    guard digitsSincePast > 0, past == .operand else { throw unexpected() }
                    leadingZero = false
                    past = .decimalPoint
                    digitsSincePast = 0
                    plainInteger = false
                case UInt8(ascii: "e"), UInt8(ascii: "E"):
                    guard digitsSincePast > 0, past == .operand || past == .decimalPoint else { throw unexpected() }
                    leadingZero = false
                    past = .exponent
                    digitsSincePast = 0
                    plainInteger = false
                case UInt8(ascii: "+"), UInt8(ascii: "-"):
                    guard digitsSincePast == 0, past == .exponent else { throw unexpected() }
                    past = .exponentSign
                    digitsSincePast = 0
                case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: ","),
                    UInt8(ascii: "]"), UInt8(ascii: "}"):
                    guard digitsSincePast > 0 else { throw unexpected() }
                    break scan
                default:
                    throw unexpected()
                }
                index += 1
            }
            guard digitsSincePast > 0 else { throw endOfText }
            let text = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
            // Up to 18 digits an integer is exact in an Int64 whichever way Foundation reads it.
            if plainInteger, text.count <= (text[0] == UInt8(ascii: "-") ? 19 : 18) {
                var value: Int64 = 0
                for byte in text where byte != UInt8(ascii: "-") { value = value * 10 + Int64(byte - 48) }
                appendInteger(text[0] == UInt8(ascii: "-") ? -value : value)
                return
            }
            switch JSONDocument.foundationNumber(String(decoding: text, as: UTF8.self)) {
            case .integer(let value)?: appendInteger(value)
            case .double(let value)?:
                append(JSONDocument.entry(.double, 0))
                append(value.bitPattern)
            default:
                // Refused only if it stays in the document: a repeated member name may replace it, as
                // Foundation converts numbers after building its dictionaries.
                unrepresentable = unrepresentable ?? start
                append(JSONDocument.entry(.unrepresentable, UInt64(start)))
            }
        }

        func numberError() -> ParseError {
            ParseError(message: "Number with leading zero around character \(index).", offset: index)
        }

        mutating func appendInteger(_ value: Int64) {
            if value >= -(1 << 59), value < 1 << 59 {
                append(JSONDocument.entry(.smallInteger, UInt64(bitPattern: value) & 0x0FFF_FFFF_FFFF_FFFF))
            } else {
                append(JSONDocument.entry(.integer, 0))
                append(UInt64(bitPattern: value))
            }
        }
    }

    /// A number's text as ``JSONValue/parse(_:)-(Data)`` reads it: Foundation's `NSNumber.fromJSONNumber`
    /// (an `Int64` or `UInt64` when the text is an integer of up to 19 or 20 characters, a `Decimal` for more
    /// than 17 characters before an exponent within ±127, else a finite `Double`), then
    /// ``JSONValue/init(foundationNumber:)``. `nil` when Foundation finds it not representable.
    static func foundationNumber(_ string: String) -> JSONValue? {
        let exponentIndex = string.firstIndex(of: "e")
        let isInteger = !string.contains(".") && exponentIndex == nil
        let isNegative = string.hasPrefix("-")
        let digitCount = string[..<(exponentIndex ?? string.endIndex)].count
        var number: NSNumber?
        if isInteger {
            if isNegative {
                if digitCount <= 19, let value = Int64(string) { number = NSNumber(value: value) }
            } else if digitCount <= 20, let value = UInt64(string) {
                number = NSNumber(value: value)
            }
        }
        if number == nil {
            var exponent = 0
            if let exponentIndex, let parsed = Int(string[string.index(after: exponentIndex)...]) { exponent = parsed }
            if digitCount > 17, exponent >= -128, exponent <= 127, let decimal = Decimal(string: string),
                decimal.isFinite
            {
                number = NSDecimalNumber(decimal: decimal)
            } else if let value = Double(string), value.isFinite {
                // A fraction stays a double whatever the text: no NSNumber needed.
                if value.rounded(.towardZero) != value { return .double(value) }
                number = NSNumber(value: value)
            }
        }
        return number.map { JSONValue(foundationNumber: $0) }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Whether the bytes from `start` (before `end`) begin with U+FEFF's UTF-8.
    static func startsWithByteOrderMark(_ bytes: UnsafeRawBufferPointer, at start: Int, before end: Int) -> Bool {
        end - start >= 3 && bytes[start] == 0xEF && bytes[start + 1] == 0xBB && bytes[start + 2] == 0xBF
    }

    /// Reads a tape being written.
    struct TapeReader {
        let tape: UnsafeMutablePointer<UInt64>
        let bytes: UnsafeRawBufferPointer
        let decoded: UnsafeMutableRawPointer?

        func length(at position: Int) -> Int {
            JSONDocument.length(of: tape[position], at: position)
        }

        /// The bytes of the member name at `position`.
        func key(_ position: Int) -> UnsafeRawBufferPointer {
            let entry = tape[position]
            let offset = Int(truncatingIfNeeded: (entry >> 30) & 0x3FFF_FFFF)
            let count = Int(truncatingIfNeeded: entry & 0x3FFF_FFFF)
            if entry >> 60 == Tag.sourceString.rawValue {
                return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
            }
            return UnsafeRawBufferPointer(start: decoded! + offset, count: count)
        }
    }
}

extension JSONValue {
    /// The value of a number as Foundation's `JSONSerialization` reads it into an `NSNumber`: a whole number
    /// that fits an `Int64` (and whose decimal text has no point) is an integer, anything else a double.
    init(foundationNumber number: NSNumber) {
        let code = String(cString: number.objCType)
        if code == "d" || code == "f" {
            // Foundation reads numbers beyond 64 bits as NSDecimalNumber, whose `doubleValue` can be off by
            // one ulp on Linux (so 5.8446744073419104e+19 did not equal itself after a round trip); its
            // decimal text converts exactly.
            let double = (number as? NSDecimalNumber).flatMap { Double($0.stringValue) } ?? number.doubleValue
            if let exact = Int64(exactly: double), !String(describing: number).contains(".") {
                self = .integer(exact)
            } else {
                self = .double(double)
            }
        } else if code == "Q", number.uint64Value > UInt64(Int64.max) {
            self = .double(number.doubleValue)
        } else {
            self = .integer(number.int64Value)
        }
    }
}
