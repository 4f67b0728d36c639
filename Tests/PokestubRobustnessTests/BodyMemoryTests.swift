import Foundation
import PokestubCore
import Testing

/// Every reload replaces the 26 MB of shipped bodies. From malloc, those buffers fragmented its heap under
/// load (glibc serves large blocks from the heap once a freed one has raised its mmap threshold), and RSS
/// climbed from 350 to 536 MB in two minutes of scripts/soak.sh with a reload a second. scripts/soak.sh
/// measures the effect; this checks the mechanism.
@Suite("Response body memory")
struct BodyMemoryTests {
    /// This process's mappings, from /proc/self/maps.
    static func mappings() -> [Range<UInt>] {
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        return maps.split(separator: "\n").compactMap { line in
            let bounds = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt($0, radix: 16) }
            return bounds.count == 2 ? bounds[0]..<bounds[1] : nil
        }
    }

    @Test(
        "a large body has pages of its own, which it returns when it goes",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "needs Linux's /proc"))
    func largeBodiesHaveTheirOwnPages() throws {
        let size = 256 << 10
        var body: ResponseBody? = ResponseBody(Data(repeating: 7, count: size))
        let address = UInt(bitPattern: body?.baseAddress)
        // From malloc the bytes start 16 bytes into a chunk, in the heap or in a mapping malloc made.
        let pageAligned = address % UInt(sysconf(Int32(_SC_PAGESIZE))) == 0
        #expect(pageAligned, "the body at \(address) does not start a page of its own")
        body = nil
        let stillMapped = Self.mappings().contains { $0.overlaps(address..<(address + UInt(size))) }
        #expect(!stillMapped, "the body's pages outlived it")
    }

    @Test("small and large bodies keep their bytes", arguments: [0, 1, 65_535, 65_536, 1 << 20])
    func bytesSurvive(count: Int) {
        let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let body = ResponseBody(data)
        #expect(body.count == count)
        #expect(body.data == data)
    }

    @Test(
        "an answer passing through shares a large Data's bytes and copies a small one's",
        arguments: [0, 1, 4_095, 4_096, 542_303])
    func passingThroughSharesLargeBodies(count: Int) {
        let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 * 13) })
        let body = ResponseBody(passingThrough: data)
        let dataAddress = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        let shared = count >= 4_096
        #expect((UInt(bitPattern: body.baseAddress) == dataAddress) == shared)
        #expect(body.count == count)
        #expect(body.data == data)
    }

    @Test("a shared body keeps its bytes when the Data it came from is changed or let go")
    func sharedBodiesOutliveTheirData() {
        var data: Data? = Data(repeating: 42, count: 64 << 10)
        let body = ResponseBody(passingThrough: data!)
        data![0] = 0  // copy-on-write: the change goes to a copy of the bytes
        data!.append(contentsOf: [1, 2, 3])
        data = nil
        let bytes = UnsafeRawBufferPointer(start: body.baseAddress, count: body.count)
        #expect(bytes.count == 64 << 10)
        #expect(bytes.allSatisfy { $0 == 42 })
    }
}
