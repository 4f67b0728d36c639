import Foundation
import PokestubCore
import Testing

/// Every reload replaces the 26 MB of shipped bodies. From malloc, those buffers fragmented its heap under
/// load (glibc serves large blocks from the heap once a freed one has raised its mmap threshold), and RSS
/// climbed from 350 to 536 MB in two minutes of scripts/soak.sh with a reload a second. scripts/soak.sh
/// measures the effect; this checks the mechanism.
@Suite("Response body memory")
struct BodyMemoryTests {
    /// The start addresses of this process's mappings, from /proc/self/maps.
    static func mappingStarts() -> Set<UInt> {
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        return Set(maps.split(separator: "\n").compactMap { UInt($0.prefix { $0 != "-" }, radix: 16) })
    }

    @Test("a large body has pages of its own, which it returns when it goes")
    func largeBodiesHaveTheirOwnPages() throws {
        try #require(FileManager.default.fileExists(atPath: "/proc/self/maps"), "needs Linux's /proc")
        var body: ResponseBody? = ResponseBody(Data(repeating: 7, count: 256 << 10))
        let address = UInt(bitPattern: body?.baseAddress)
        // From malloc the bytes start 16 bytes into a chunk, in the heap or in a mapping malloc made.
        let mapped = Self.mappingStarts().contains(address)
        #expect(mapped, "the body at \(address) is not a mapping of its own")
        body = nil
        let unmapped = !Self.mappingStarts().contains(address)
        #expect(unmapped, "the body's pages outlived it")
        let small = ResponseBody(Data(repeating: 7, count: 1_000))
        let smallMapped = Self.mappingStarts().contains(UInt(bitPattern: small.baseAddress))
        #expect(!smallMapped, "a small body should come from malloc")
    }

    @Test("small and large bodies keep their bytes", arguments: [0, 1, 65_535, 65_536, 1 << 20])
    func bytesSurvive(count: Int) {
        let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let body = ResponseBody(data)
        #expect(body.count == count)
        #expect(body.data == data)
    }
}
