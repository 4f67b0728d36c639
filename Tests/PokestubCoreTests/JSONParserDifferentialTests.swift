import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

/// `JSONValue.parse` is pokestub's own parser; `JSONSerialization`, as pokestub used it before
/// (``FoundationJSONReference``), is the reference: every text must give the same value, or be refused by
/// both, on the same line. Columns are not compared: for some errors (a bad escape or surrogate, an unfinished
/// literal, a number beyond `Double`'s range, invalid UTF-8) Foundation names a byte a few places before or
/// after the one pokestub's parser stops at; the columns the tests pin (`JSONValueTests`) are the same.
@Suite("JSON parser against JSONSerialization")
struct JSONParserDifferentialTests {
    /// Both readings of `data`: `nil` when they agree, else what differs.
    static func difference(_ data: Data) -> String? {
        let reference = FoundationJSONReference.parse(data)
        let parsed: Result<JSONValue, JSONSyntaxError>
        do {
            parsed = .success(try JSONValue.parse(data))
        } catch {
            parsed = .failure(error)
        }
        switch (reference, parsed) {
        case (.success(let expected), .success(let value)):
            return identical(expected, value) ? nil : "different values"
        case (.failure(let expected), .failure(let error)):
            return expected.line == error.line
                ? nil : "refused on line \(error.line ?? 0), JSONSerialization on \(expected.line ?? 0)"
        case (.success, .failure(let error)):
            return "refused (\(error.message)), JSONSerialization accepts it"
        case (.failure(let expected), .success):
            return "accepted, JSONSerialization refuses it (\(expected.message))"
        }
    }

    /// `==`, with doubles compared bit for bit (so `-0.0` is not `0.0`).
    static func identical(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.double(let left), .double(let right)): return left.bitPattern == right.bitPattern
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { identical($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { key, value in
                    guard let index = right.index(forKey: key) else { return false }
                    // The same spelling of the name, not only an equivalent one.
                    return Array(right[index].key.utf8) == Array(key.utf8) && identical(value, right[index].value)
                }
        default: return lhs == rhs
        }
    }

    static func jsonFiles(under root: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { root + "/" + $0 }
    }

    /// Every JSON file under `root` (more than `least` of them) reads the same both ways.
    private static func expectEveryFileReadsTheSame(under root: String, moreThan least: Int) throws {
        let files = jsonFiles(under: root)
        #expect(files.count > least)
        for path in files {
            let difference = difference(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(difference == nil, "\(path): \(difference ?? "")")
        }
    }

    @Test("every shipped stub file and body file reads the same")
    func shippedStubs() throws {
        try Self.expectEveryFileReadsTheSame(under: Repository.stubs, moreThan: 1_000)
    }

    @Test("every PokeAPI answer reads the same")
    func pokeAPIBodies() throws {
        try Self.expectEveryFileReadsTheSame(under: Repository.pokeAPIDump, moreThan: 500)
    }

    /// The JSON-ish pieces of a fuzz input: the whole file, each part between `@@…@@` markers and after a
    /// blank line (a request's body), and each line.
    static func pieces(of data: Data) -> [Data] {
        let text = String(decoding: data, as: UTF8.self)
        var pieces = [data]
        for part in text.components(separatedBy: "@@") {
            pieces.append(Data(part.utf8))
            for separator in ["\n\n", "\r\n\r\n"] {
                if let range = part.range(of: separator) { pieces.append(Data(part[range.upperBound...].utf8)) }
            }
            for line in part.split(separator: "\n") where line.hasPrefix("{") || line.hasPrefix("[") {
                pieces.append(Data(line.utf8))
            }
        }
        return pieces
    }

    @Test("every fuzz seed reads the same")
    func fuzzSeeds() throws {
        var files: [String] = []
        for folder in ["Fuzz/corpus", "Fuzz/seeds"] {
            let root = Repository.root.appendingPathComponent(folder).path
            let names = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            for name in names.sorted() {
                var isFolder: ObjCBool = false
                let path = root + "/" + name
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                    files.append(path)
                }
            }
        }
        #expect(files.count > 300)
        var accepted = 0
        for path in files {
            for (index, piece) in Self.pieces(of: try Data(contentsOf: URL(fileURLWithPath: path))).enumerated() {
                let difference = Self.difference(piece)
                #expect(difference == nil, "\(path), piece \(index): \(difference ?? "")")
                if (try? JSONValue.parse(piece)) != nil { accepted += 1 }
            }
        }
        #expect(accepted > 100)
    }

    /// A case's bytes: `%HH` is the byte 0xHH, everything else its UTF-8.
    static func bytes(_ text: String) -> Data {
        var result = Data()
        var units = Array(text.utf8)[...]
        while let unit = units.popFirst() {
            if unit == UInt8(ascii: "%"), units.count >= 2,
                let byte = UInt8(String(decoding: units.prefix(2), as: UTF8.self), radix: 16)
            {
                result.append(byte)
                units = units.dropFirst(2)
            } else {
                result.append(unit)
            }
        }
        return result
    }

    @Test("JSONTestSuite's cases: y_ accepted, n_ refused, i_ as JSONSerialization reads them")
    func testSuiteCases() {
        for (name, text) in JSONTestSuiteCases.all {
            let data = Self.bytes(text)
            let difference = Self.difference(data)
            #expect(difference == nil, "\(name): \(difference ?? "")")
            let accepted = (try? JSONValue.parse(data)) != nil
            if name.hasPrefix("y_") { #expect(accepted, "\(name) refused") }
            if name.hasPrefix("n_"), !JSONTestSuiteCases.acceptedByFoundation.contains(name) {
                #expect(!accepted, "\(name) accepted")
            }
        }
        let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(deep) }
        #expect(Self.difference(deep) == nil)
        let deepObjects = Data(String(repeating: #"[{"":"#, count: 50_000).utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(deepObjects) }
    }

    @Test("edge cases of the grammar and mutated documents read the same")
    func edgeAndMutated() {
        for text in JSONDocumentEquivalenceTests.edgeTexts {
            let difference = Self.difference(Data(text.utf8))
            #expect(difference == nil, "\(text.debugDescription): \(difference ?? "")")
        }
        // A trailing comma is named only when nothing else is wrong, as when Foundation read the text first.
        for text in [
            "[1,] x", "{\"a\": [1,],\n \"b\": }", "[1e400,]", "{\"a\": 1,}\n[", "[[1,],\n[2,]]",
            "{\"a\": 1,\n\"b\": 2,}",
        ] {
            let difference = Self.difference(Data(text.utf8))
            #expect(difference == nil, "\(text.debugDescription): \(difference ?? "")")
        }
        // A syntax error before an ill-formed UTF-8 sequence is named, on its own line: Foundation checks each
        // string as it reads it.
        // Each text as its ASCII part and the bytes after it (separate literals: Swift 6.2 cannot type-check one
        // expression of them all in reasonable time).
        let parts: [(text: String, after: [UInt8])] = [
            ("x\n\"\u{E9}\"", [0xFF]), ("[1,\n2 3,\n\"", [0xC3, 0x28, 0x22, 0x5D]),
            ("{\"a\": tru,\n\"b\": \"", [0xED, 0xA0, 0x80, 0x22, 0x7D]),
            ("[\"ok\",\n\"", [0xFF, 0x22, 0x2C, 0x20, 0x6E, 0x75, 0x6C, 0x5D]),
        ]
        for part in parts {
            var bytes = Array(part.text.utf8)
            bytes.append(contentsOf: part.after)
            let difference = Self.difference(Data(bytes))
            #expect(difference == nil, "\(bytes): \(difference ?? "")")
        }
        var stray = Array("x\n\n\"".utf8)
        stray.append(contentsOf: [0xFF, 0x22])
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Data(stray)) }
        do {
            _ = try JSONValue.parse(Data(stray))
        } catch {
            #expect(error.line == 1, "the stray x on line 1 is named, not the byte on line 3: \(error)")
        }
        var random = SplitMix(seed: 28)
        let samples = [
            #"{"count": 1302, "next": "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20", "previous": null}"#,
            #"{"a": [1, -2.5e3, true, false, null, "\u00e9\n", {"b": {}}], "a": 0.1, "\u00e9": "x"}"#,
            #"[{"id": 1, "name": "bulbasaur", "weight": 69, "ratio": 0.45}, [], [[]], "\ud83d\ude00"]"#,
        ]
        for round in 0..<3_000 {
            var data = Data(samples[round % samples.count].utf8)
            for _ in 0...random.next(3) {
                let position = random.next(data.count)
                switch random.next(4) {
                case 0: data.remove(at: position)
                case 1:
                    let bytes = Array(",]}[{\"\\ 0.e-+:u".utf8)
                    data.insert(bytes[random.next(bytes.count)], at: position)
                case 2: data[position] = UInt8(truncatingIfNeeded: random.next(256))
                default: data.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: position)
                }
            }
            let difference = Self.difference(data)
            #expect(difference == nil, "round \(round) \(Array(data)): \(difference ?? "")")
        }
    }
}
