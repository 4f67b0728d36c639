import Foundation
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Hot reload under fire")
struct HotReloadTests {
    private static func mapping(_ path: String, _ body: String) -> String {
        #"{"request": {"method": "GET", "urlPath": "\#(path)"}, "response": {"status": 200, "body": "\#(body)"}}"#
    }

    @Test("files rewritten, truncated, deleted and renamed while clients hammer: no 5xx, never a partial stub")
    func reloadUnderFire() async throws {
        let folder = try TemporaryDirectory()
        for name in ["a", "b", "c"] {
            try folder.write(Self.mapping("/\(name)", "\(name)0"), to: "stubs/mappings/\(name).json")
        }
        let server = try PokestubProcess(["serve", "--port", "0", "--stubs", folder.path + "/stubs"])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        let mappings = folder.path + "/stubs/mappings"

        // The writer: forty rounds of non-atomic rewrites, truncations, broken JSON, deletions and renames,
        // each followed by SIGHUP, which may land mid-write. Bounded by count, not time, so a loaded machine
        // runs the same test, only slower.
        let writerDone = Flag()
        let writer = Task.detached {
            defer { writerDone.set() }
            for version in 1...40 {
                let a = FileHandle(forWritingAtPath: mappings + "/a.json")
                try? a?.truncate(atOffset: 0)
                server.signal(SIGHUP)
                try? a?.write(contentsOf: Data(Self.mapping("/a", "a\(version)").utf8))
                try? a?.close()
                let b = URL(fileURLWithPath: mappings + "/b.json")
                try? Data(Self.mapping("/b", "b\(version)").utf8.prefix(20)).write(to: b)
                server.signal(SIGHUP)
                try? Data(Self.mapping("/b", "b\(version)").utf8).write(to: b)
                if version % 3 == 0 {
                    try? FileManager.default.removeItem(atPath: mappings + "/c.json")
                } else {
                    let temporary = URL(fileURLWithPath: mappings + "/.c.tmp")
                    try? Data(Self.mapping("/c", "c\(version)").utf8).write(to: temporary)
                    rename(temporary.path, mappings + "/c.json")
                }
                server.signal(SIGHUP)
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        // The clients hammer until the writer is done.
        var statuses: [Int: Int] = [:]
        var badBodies: [String] = []
        var requests = 0
        while !writerDone.isSet {
            let name = ["a", "b", "c"][requests % 3]
            let answer = try await HTTPFetch.send(base + "/\(name)")
            let (status, body) = (answer.status, answer.text)
            statuses[status, default: 0] += 1
            if status == 200, body.range(of: "^\(name)[0-9]+$", options: .regularExpression) == nil {
                badBodies.append(body)
            }
            requests += 1
        }
        await writer.value
        #expect(requests > 0)
        #expect(statuses.keys.allSatisfy { $0 == 200 || $0 == 404 }, "\(statuses)")
        #expect(badBodies.isEmpty, "\(badBodies.prefix(5))")

        // Calm again: the last good versions are served.
        for name in ["a", "b", "c"] {
            try folder.write(Self.mapping("/\(name)", "\(name)final"), to: "stubs/mappings/\(name).json")
        }
        var settled = false
        for _ in 0..<200 where !settled {
            let answers = try await [
                HTTPFetch.send(base + "/a").text, HTTPFetch.send(base + "/b").text, HTTPFetch.send(base + "/c").text,
            ]
            settled = answers == ["afinal", "bfinal", "cfinal"]
            if !settled { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(settled)
        #expect(server.stderr.contains("reloaded"))
    }
}
