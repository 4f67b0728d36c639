import Foundation
import PokestubLocking
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("Re-recording an upstream that answers the same again")
struct UnchangedRecordingTests {
    static let pokemon = "/api/v2/pokemon/1/"
    static let files = ["__files/api/v2/pokemon/1/GET.json", "mappings/api/v2/pokemon/1/GET.json"]

    /// Keeps the engine's log lines; how each recording went is at the end of its line.
    final class LogLines: LogHandler {
        private let lines = Locked<[String]>([])

        func log(_ level: LogLevel, _ message: String) { lines.withLock { $0.append(message) } }

        /// The parenthesised outcome of each `recorded ...` line, in order: `new`, `changed`, `unchanged`, or
        /// `unchanged: the same answer, nothing written`.
        var outcomes: [String] {
            lines.withLock { lines in
                lines.filter { $0.hasPrefix("recorded ") }.compactMap { line in
                    line.lastIndex(of: "(").map { String(line[line.index(after: $0)...].dropLast()) }
                }
            }
        }
    }

    static let same = "unchanged: the same answer, nothing written"

    /// Which file a path is and when it was last written: an atomic write replaces the inode, any other
    /// write moves the modification time or the size.
    private func identity(_ folder: TemporaryDirectory, _ relative: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path + "/" + relative)
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(attributes[.systemFileNumber] ?? "?") \(modified) \(attributes[.size] ?? "?")"
    }

    @Test("the same answer again writes nothing, serves the same bytes from the same stub, and reports unchanged")
    func identicalAnswerWritesNothing() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start(staticRoot: Repository.pokeAPIDump)
        defer { upstream.stop() }
        let log = LogLines()
        let server = try RecordingServer(
            root: folder.path, mode: .record, upstream: upstream.baseURL, logger: Logger(handler: log))
        defer { server.stop() }
        let first = try await server.send("GET", UnchangedRecordingTests.pokemon)
        #expect(first.status == 200)
        // The files are on disk when the answer arrives, not only after a stop.
        #expect(folder.files == UnchangedRecordingTests.files)
        let written = try UnchangedRecordingTests.files.map { try identity(folder, $0) }
        let bytes = try UnchangedRecordingTests.files.map { try folder.data($0) }

        for _ in 0..<3 {
            let again = try await server.send("GET", UnchangedRecordingTests.pokemon)
            #expect(again.status == 200)
            #expect(again.body == first.body)
            #expect(again.headers["Matched-Stub-Id"] == first.headers["Matched-Stub-Id"])
        }
        #expect(upstream.requests("GET \(UnchangedRecordingTests.pokemon)") == 4, "record mode asks every time")
        let same = UnchangedRecordingTests.same
        #expect(log.outcomes == ["new", same, same, same], "parsed, canonicalised and written once")
        #expect(try UnchangedRecordingTests.files.map { try identity(folder, $0) } == written, "nothing rewritten")
        #expect(folder.files == UnchangedRecordingTests.files, "no temporary file left behind")
        let (_, stopped) = try await server.admin("POST", "/recordings/stop")
        #expect(stopped["report"]?["new"] == .integer(1))
        #expect(stopped["report"]?["total"] == .integer(1))

        // A new recording session over the same answer: unchanged, still not rewritten.
        let start = "{\"targetBaseUrl\": \"\(upstream.baseURL)\"}"
        #expect(try await server.admin("POST", "/recordings/start", json: start).0 == 200)
        #expect(try await server.send("GET", UnchangedRecordingTests.pokemon).body == first.body)
        let (_, again) = try await server.admin("POST", "/recordings/stop")
        #expect(
            again["report"]
                == .object(["new": .integer(0), "unchanged": .integer(1), "changed": .integer(0), "total": .integer(1)])
        )
        #expect(log.outcomes.last == same)
        #expect(try UnchangedRecordingTests.files.map { try identity(folder, $0) } == written)
        #expect(try UnchangedRecordingTests.files.map { try folder.data($0) } == bytes)
        #expect(server.engine.recordings.lifetimeReport == RecordingReport(new: 1, unchanged: 0, changed: 0))
    }

    @Test("a recording whose file changed on disk is written again, even when the upstream answers the same")
    func fileChangedOnDisk() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start(staticRoot: Repository.pokeAPIDump)
        defer { upstream.stop() }
        let log = LogLines()
        let server = try RecordingServer(
            root: folder.path, mode: .record, upstream: upstream.baseURL, logger: Logger(handler: log))
        defer { server.stop() }
        let first = try await server.send("GET", UnchangedRecordingTests.pokemon)
        let recorded = try folder.data(UnchangedRecordingTests.files[0])
        // Someone rewrites the body file in place (same inode, truncated), later someone replaces the mapping.
        let bodyFile = URL(fileURLWithPath: folder.path + "/" + UnchangedRecordingTests.files[0])
        let inode = try identity(folder, UnchangedRecordingTests.files[0]).split(separator: " ").first
        try Data("{}\n".utf8).write(to: bodyFile)
        #expect(try identity(folder, UnchangedRecordingTests.files[0]).split(separator: " ").first == inode)
        #expect(try folder.data(UnchangedRecordingTests.files[0]) != recorded)

        let again = try await server.send("GET", UnchangedRecordingTests.pokemon)
        #expect(again.body == first.body)
        #expect(try folder.data(UnchangedRecordingTests.files[0]) == recorded, "the body file was written again")

        try Data("{\"request\": {\"url\": \"/elsewhere\"}, \"response\": {\"status\": 204}}\n".utf8).write(
            to: URL(fileURLWithPath: folder.path + "/" + UnchangedRecordingTests.files[1]), options: .atomic)
        let third = try await server.send("GET", UnchangedRecordingTests.pokemon)
        #expect(third.body == first.body)
        #expect(
            try folder.json(UnchangedRecordingTests.files[1])["response"]?["bodyFileName"]
                == .string("api/v2/pokemon/1/GET.json"))
        _ = try await server.send("GET", UnchangedRecordingTests.pokemon)
        #expect(log.outcomes == ["new", "changed", "changed", UnchangedRecordingTests.same])
    }

    @Test("a changed answer is recorded again each time: only an identical one is skipped")
    func changedAnswerIsRecorded() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let log = LogLines()
        let server = try RecordingServer(
            root: folder.path, mode: .record, upstream: upstream.baseURL, logger: Logger(handler: log))
        defer { server.stop() }
        for call in 1...3 {
            let answer = try await server.send("GET", "/counter")
            #expect(try JSONValue.parse(answer.body)["calls"] == .integer(Int64(call)))
            let mapping = try folder.json("mappings/counter.GET.json")
            #expect(mapping["response"]?["jsonBody"]?["calls"] == .integer(Int64(call)))
        }
        // The same path with the same answer but another query order is another request pattern.
        _ = try await server.send("GET", "/version?v=1&w=2")
        _ = try await server.send("GET", "/version?w=2&v=1")
        _ = try await server.send("GET", "/version?w=2&v=1")
        #expect(log.outcomes == ["new", "changed", "changed", "new", "changed", UnchangedRecordingTests.same])
        let (_, stopped) = try await server.admin("POST", "/recordings/stop")
        #expect(stopped["report"]?["new"] == .integer(2))
        guard case .array(let mappings)? = stopped["mappings"] else {
            Issue.record("no mappings in \(stopped)")
            return
        }
        let names = mappings.compactMap { $0["name"]?.stringValue }
        #expect(names.contains("GET /version?w=2&v=1"), "\(names)")
    }

    @Test("the content digest tells bodies apart by every byte and by length")
    func contentDigest() {
        let body = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        #expect(ContentDigest(body) == ContentDigest(Data(body)))
        for position in [0, 7, 31, 32, 500, 991, 999] {
            var changed = body
            changed[position] ^= 0x01
            #expect(ContentDigest(changed) != ContentDigest(body), "byte \(position)")
        }
        #expect(ContentDigest(body.prefix(999)) != ContentDigest(body))
        #expect(ContentDigest(Data()) != ContentDigest(Data([0])))
        #expect(ContentDigest([Data("ab".utf8), Data("c".utf8)]) != ContentDigest([Data("a".utf8), Data("bc".utf8)]))
    }
}
