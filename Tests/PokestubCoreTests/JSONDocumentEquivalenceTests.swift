import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

/// Matching reads a request body as a `JSONDocument` in place; stubs' documents and the rest of pokestub use
/// `JSONValue.parse`. Both must read every text the same way, and `equalToJson` and JSONPath must answer the
/// same on either.
@Suite("JSON documents read as JSONValue does")
struct JSONDocumentEquivalenceTests {
    /// PokeAPI answers and shipped stub files, a sample of about 6 MB (every file would take minutes in a debug
    /// build): every 12th file of each tree, in path order, and pokemon/1.
    static let sampleFiles: [String] = {
        func jsonFiles(under root: String) -> [String] {
            let names = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted().map { root + "/" + $0 }
        }
        let dump = jsonFiles(under: Repository.pokeAPIDump)
        let stubs = jsonFiles(under: Repository.stubs)
        let pokemon = Repository.pokeAPIDump + "/api/v2/pokemon/1/index.json"
        let sampled = stride(from: 0, to: dump.count, by: 12).map { dump[$0] }
        let sampledStubs = stride(from: 0, to: stubs.count, by: 12).map { stubs[$0] }
        return [pokemon] + sampled + sampledStubs
    }()

    /// Texts at the edges of the grammar and of Foundation's number, string and key rules.
    static let edgeTexts: [String] = [
        "", " ", "1", " 12 ", "-0", "-", "01", "1.", ".5", "1e", "1.0", "1e5", "1E5", "1e+5", "1e-5", "1e05",
        "1e15", "1e16", "2.50e1", "0e0", "-0.0", "1e400", "1E400", "1e-400", "123456789012345678",
        "1234567890123456789", "-1234567890123456789", "12345678901234567890", "18446744073709551615",
        "18446744073709551616", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "100000000000000000000", "12345678901234567890123", "1.0000000000000000001",
        "576460752303423488", "-576460752303423489", "true", "tru", "nul", "[1,]", "[1,2]", "{\"a\":1,}", "[,]",
        "{,}", "[1 2]", "{\"a\" 1}", "{\"a\":1 \"b\":2}", "[1]x", "\"\\ud800\"", "\"\\udc00\"",
        "\"\\ud83d\\ude00\"", "\"\\u0000\"", "\"\\u00E9\"", "\"\\x\"", "\"\\u12G4\"", "\"a\tb\"", "\"\\/\"",
        "\"\u{FEFF}x\"", "\"\u{FEFF}\u{FEFF}x\"", "\"a\\n\u{FEFF}x\"", "\"\u{FEFF}\"", "\u{FEFF}[1]", "\u{FEFF}1",
        "{\"K\": 1, \"\u{212A}\": 2}", "{\"\u{212A}\": 1, \"K\": 2}", "{\"e\u{301}\": 1, \"\u{E9}\": 2}",
        "{\"b\": 1, \"a\": 2, \"b\": 3}", "{\"a\": 1e400, \"a\": 1}", "{\"a\": 1, \"a\": 1e400}", "[{}, [], \"\"]",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
    ]

    /// Parses `data` both ways: both refuse it, or both read the same value with the same key order and
    /// member lookups.
    static func expectSameReading(_ data: Data, _ label: String) {
        let value = try? JSONValue.parse(data)
        let document = try? JSONDocument.parse(data)
        #expect((value == nil) == (document == nil), "\(label): accepted by one parser only")
        guard let value, let document else { return }
        #expect(document.root.materialized() == value, "\(label)")
        #expect(sameStructure(value, document.root), "\(label)")
    }

    /// Whether the node's members come in the value's sorted key order and are found by name (canonically
    /// and byte for byte), at every depth.
    static func sameStructure(_ value: JSONValue, _ node: JSONDocument.Node) -> Bool {
        guard value.count == node.count, value.kind == node.kind else { return false }
        switch value {
        case .object(let members):
            let keys = members.keys.sorted()
            guard node.memberValues.map({ $0.materialized() }) == keys.map({ members[$0]! }) else { return false }
            return keys.allSatisfy { key in
                guard let found = node.member(named: key), node.member(withUTF8: key) != nil else { return false }
                return sameStructure(members[key]!, found)
            }
        case .array(let items):
            return zip(items, node.elements).allSatisfy { sameStructure($0, $1) }
        default:
            return true
        }
    }

    @Test("PokeAPI answers and shipped stubs read the same")
    func sampledFiles() throws {
        #expect(Self.sampleFiles.count > 100)
        for path in Self.sampleFiles {
            Self.expectSameReading(try Data(contentsOf: URL(fileURLWithPath: path)), path)
        }
    }

    @Test("edge cases of the grammar, numbers, strings and repeated names read the same")
    func edgeCases() {
        for text in Self.edgeTexts {
            Self.expectSameReading(Data(text.utf8), text.debugDescription)
        }
        for text in ["[1,2]", "{\"a\":\"\u{E9}\"}", "12"] {
            for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf16] {
                Self.expectSameReading(text.data(using: encoding)!, "\(text) in \(encoding)")
            }
        }
        let bytes: [[UInt8]] = [
            [0x31, 0x00], [0x00, 0x31], [0xEF, 0xBB, 0xBF], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
        ]
        for raw in bytes { Self.expectSameReading(Data(raw), "\(raw)") }
    }

    @Test("generated documents with mutated bytes read the same")
    func generated() {
        var random = SplitMix(seed: 27)
        let atoms = Self.edgeTexts.filter { $0.count < 30 && !$0.isEmpty } + ["\"a\"", "\"\\n\"", "{}", "[]"]
        let keys = [
            "\"a\"", "\"b\"", "\"K\"", "\"\u{212A}\"", "\"\u{E9}\"", "\"e\u{301}\"", "\"\\u00e9\"", "\"\"", "\"aa\"",
        ]
        func value(_ depth: Int) -> String {
            let choice = random.next(10)
            if depth > 3 || choice < 5 { return atoms[random.next(atoms.count)] }
            if choice < 7 {
                return "[" + (0..<random.next(4)).map { _ in value(depth + 1) }.joined(separator: ", ") + "]"
            }
            let members = (0..<random.next(5)).map { _ in keys[random.next(keys.count)] + ": " + value(depth + 1) }
            return "{" + members.joined(separator: ",") + "}"
        }
        for round in 0..<3_000 {
            var data = Data(value(0).utf8)
            if round % 3 == 0, !data.isEmpty {
                let position = random.next(data.count)
                switch random.next(3) {
                case 0: data.remove(at: position)
                case 1:
                    let bytes = Array(",]}\"\\ 0.e".utf8)
                    data.insert(bytes[random.next(bytes.count)], at: position)
                default: data.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: position)
                }
            }
            Self.expectSameReading(data, "round \(round): \(String(decoding: data, as: UTF8.self).debugDescription)")
        }
    }

    /// JSONPath expressions the stubs and the tests use, over PokeAPI's shapes.
    static let paths = [
        "$", "$.name", "$.results[0].name", "$.results[-1].url", "$.*", "$..name", "$..url", "$.abilities[*].ability",
        "$.types[?(@.type)]", "$.moves[?(!@.move)]", "$.results[?(@.name == 'bulbasaur')]",
        "$.types[?(@.slot > 1)].type.name",
        "$.stats[?(@.base_stat >= 60)]", "$..*", "$.forms[?(@.name =~ /bulb.*/i)]", "$['id']",
    ]

    @Test("equalToJson and JSONPath answer the same on a document as on a JSONValue")
    func matchingAnswersTheSame() throws {
        for path in Self.sampleFiles.prefix(30) {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let value = try? JSONValue.parse(data), let document = try? JSONDocument.parse(data) else { continue }
            for expression in Self.paths {
                let jsonPath = try JSONPath(expression)
                let fromValue = jsonPath.evaluate(on: value)
                let fromDocument = jsonPath.select(in: document.root).map { $0.materialized() }
                #expect(fromDocument == fromValue, "\(expression) on \(path)")
            }
            var expectations: [(JSONValue, Bool)] = [(value, true)]
            if case .object(var members) = value, let key = members.keys.sorted().first {
                members[key] = .string("changed")
                expectations.append((.object(members), false))
                members.removeValue(forKey: key)
                expectations.append((.object(members), false))
            }
            for (expected, equal) in expectations {
                for (ignoreArrayOrder, ignoreExtraElements) in [(false, false), (true, false), (false, true)] {
                    let onValue = JSONComparison.measured(
                        expected: expected, actual: value, ignoreArrayOrder: ignoreArrayOrder,
                        ignoreExtraElements: ignoreExtraElements)
                    let onDocument = JSONComparison.measured(
                        expected: expected, actual: document.root, ignoreArrayOrder: ignoreArrayOrder,
                        ignoreExtraElements: ignoreExtraElements)
                    #expect(onDocument.equal == onValue.equal, "\(path)")
                    #expect(onDocument.comparisons == onValue.comparisons, "\(path)")
                    if !ignoreExtraElements, !ignoreArrayOrder { #expect(onValue.equal == equal, "\(path)") }
                }
            }
        }
    }

    @Test("a parsed document holds at most five times its text, about 1.3 times for a PokeAPI answer")
    func documentSize() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.sampleFiles[0]))
        let document = try JSONDocument.parse(data)
        #expect(document.residentBytes <= data.count * 3 / 2, "\(document.residentBytes) for \(data.count) bytes")
        for text in [
            "[" + Array(repeating: "1", count: 10_000).joined(separator: ",") + "]",
            "[\(String(repeating: "[],", count: 5_000))[]]",
        ] {
            let dense = try JSONDocument.parse(Data(text.utf8))
            #expect(dense.residentBytes <= JSONDocument.costBound(sourceBytes: text.utf8.count))
        }
    }
}

/// A small seeded generator (SplitMix64), so generated cases are the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return bound <= 1 ? 0 : Int(mixed % UInt64(bound))
    }
}
