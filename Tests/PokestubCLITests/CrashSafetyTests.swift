import Foundation
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recordings are written with no disk flush (``RecordingWriter/Durability/processCrash``): a temporary file
/// renamed over the target is all a kill of the process needs to leave every file old or new, whole.
@Suite("Crash safety of recordings")
struct CrashSafetyTests {
    @Test("kill -9 during 200 concurrent recordings leaves no partial stub: every file written loads and serves")
    func killDuringRecordings() async throws {
        let folder = try TemporaryDirectory()
        // The upstream: a second pokestub serving the shipped stubs.
        let upstream = try PokestubProcess([
            "serve", "--port", "0", "--stubs", Repository.stubs, "--watch-stubs", "false",
        ])
        defer { upstream.signal(SIGKILL) }
        let upstreamURL = try await upstream.waitUntilListening()
        let recorder = try PokestubProcess([
            "serve", "--port", "0", "--mode", "record", "--upstream", upstreamURL, "--stubs", folder.path + "/recorded",
            "--rewrite-upstream-links", "false",
        ])
        defer { recorder.signal(SIGKILL) }
        try FileManager.default.createDirectory(
            atPath: folder.path + "/recorded/mappings", withIntermediateDirectories: true)
        let base = try await recorder.waitUntilListening()

        let paths = (1...151).map { "/api/v2/pokemon-species/\($0)/" } + (1...49).map { "/api/v2/move/\($0)/" }
        let requests = Task {
            await withTaskGroup(of: Void.self) { group in
                for path in paths {
                    group.addTask { _ = try? await HTTPFetch.send(base + path) }
                }
            }
        }
        // Let some recordings finish and many be in flight, then kill the recorder outright.
        let mappings = folder.path + "/recorded/mappings"
        for _ in 0..<500 {
            let written = FileManager.default.enumerator(atPath: mappings)?.allObjects.count ?? 0
            if written >= 20 { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        recorder.signal(SIGKILL)
        _ = await recorder.waitForExit()
        await requests.value

        let files = (FileManager.default.enumerator(atPath: mappings)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".json") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
        #expect(files.count >= 1)
        let check = try await PokestubProcess.run(["check", folder.path + "/recorded"])
        #expect(check.status == 0, "\(check.stdout)")

        // After a restart every written stub serves, with the upstream gone.
        upstream.signal(SIGKILL)
        let replay = try PokestubProcess(["serve", "--port", "0", "--stubs", folder.path + "/recorded"])
        defer { replay.signal(SIGKILL) }
        let replayBase = try await replay.waitUntilListening()
        let served = try await PokestubProcess.run(["check", folder.path + "/recorded"]).stdout
        #expect(served.contains("no problems"))
        var ok = 0
        for path in paths {
            if try await HTTPFetch.send(replayBase + path).status == 200 { ok += 1 }
        }
        // Each stub written before the kill answers; requests cut off by it simply were not recorded.
        #expect(ok >= files.count)
    }
}
