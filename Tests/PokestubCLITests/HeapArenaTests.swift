import Foundation
import PokestubTestSupport
import Testing

#if os(Linux)
    /// `pokestub serve` keeps one glibc malloc arena per core (`HeapArenas`), counted in `/proc/PID/maps`.
    @Suite("pokestub serve keeps at most one malloc arena per core")
    struct HeapArenaTests {
        /// glibc's arenas other than the main one (which is the `[heap]` of brk): each is a reservation of
        /// `HEAP_MAX_SIZE` (64 MiB on 64-bit systems) aligned to its size, mapped read-write as far as it is
        /// used and `---p` beyond (glibc malloc/arena.c, `new_heap`).
        static func threadArenas(of server: PokestubProcess) throws -> Int {
            let path = "/proc/\(server.processIdentifier)/maps"
            let handle = try #require(FileHandle(forReadingAtPath: path), "cannot open \(path)")
            defer { try? handle.close() }
            let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
            try #require(maps.contains("[stack]"), "\(path) read in full")
            let heapSize: UInt64 = 64 << 20
            let regions: [(start: UInt64, end: UInt64, permissions: Substring, named: Bool)] =
                maps.split(separator: "\n").compactMap { line in
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    guard fields.count >= 5 else { return nil }
                    let bounds = fields[0].split(separator: "-")
                    guard bounds.count == 2, let start = UInt64(bounds[0], radix: 16),
                        let end = UInt64(bounds[1], radix: 16)
                    else { return nil }
                    return (start, end, fields[1], fields.count > 5)
                }
            var arenas = 0
            for (index, region) in regions.enumerated() where !region.named && region.permissions == "rw-p" {
                guard region.start % heapSize == 0 else { continue }
                let reservedEnd =
                    index + 1 < regions.count && regions[index + 1].start == region.end
                        && regions[index + 1].permissions == "---p" && !regions[index + 1].named
                    ? regions[index + 1].end : region.end
                if reservedEnd - region.start == heapSize { arenas += 1 }
            }
            return arenas
        }

        @Test(
            "after concurrent requests on every server thread, the arenas besides the main one are fewer than the cores"
        )
        func arenasPerCore() async throws {
            let server = try PokestubProcess([
                "serve", "--port", "0", "--stubs", Repository.stubs, "--watch-stubs", "false",
            ])
            let base = try await server.waitUntilListening()
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        try await HTTPFetch.send(base + "/api/v2/pokemon/\(index % 8 + 1)/").status
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let arenas = try Self.threadArenas(of: server)
            #expect(arenas <= cores - 1, "\(arenas) thread arenas beside the main heap on \(cores) cores")
            #expect(await server.stop())
        }
    }
#endif
