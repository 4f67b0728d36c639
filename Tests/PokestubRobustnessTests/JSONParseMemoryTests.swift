import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// Stub files, admin API bodies, HAR files and recordings are read with `JSONValue.parse`. Through
/// `JSONSerialization`'s objects, a 7 MB PokeAPI body took 26 times its size while it was read.
@Suite("JSON parse memory", .serialized)
struct JSONParseMemoryTests {
    /// A JSON array of pokemon/1's answer (542 KB) repeated to about 7 MB.
    static func largeBody() throws -> Data {
        let answer = try Data(
            contentsOf: URL(fileURLWithPath: Repository.pokeAPIDump + "/api/v2/pokemon/1/index.json"))
        var body = Data("[".utf8)
        for index in 0..<13 {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(answer)
        }
        body.append(UInt8(ascii: "]"))
        return body
    }

    @Test(
        "parsing a 7 MB body takes at most 4 times its size, the value it returns included",
        .enabled(if: ResidentMemory.isAvailable, "needs Linux's /proc"))
    func largeBodyMemory() throws {
        let body = try Self.largeBody()
        #expect(body.count > 7_000_000)
        let before = try #require(ResidentMemory.residentBytes())
        try ResidentMemory.resetPeak()
        let value = try JSONValue.parse(body)
        let peak = try #require(ResidentMemory.peakBytes())
        #expect(value.arrayValue?.count == 13)
        // The value itself is about 3.3 times the text; the tape and the strings the parse decoded add little.
        let growth = peak - before
        #expect(growth <= 4 * body.count, "parsing \(body.count) bytes took \(growth)")
        withExtendedLifetime(value) {}
    }
}
