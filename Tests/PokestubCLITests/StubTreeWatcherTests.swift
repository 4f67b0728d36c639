import Foundation
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The stub tree watcher through the real binary, without SIGHUP: a change anywhere under `mappings/`, in a
/// folder made after the daemon started too, reloads the stubs (inotify on Linux, kqueue on Darwin).
@Suite("Watching the stub tree")
struct StubTreeWatcherTests {
    private static func mapping(_ path: String, _ body: String) -> String {
        #"{"request": {"method": "GET", "urlPath": "\#(path)"}, "response": {"status": 200, "body": "\#(body)"}}"#
    }

    /// Fetches `url` until it answers `status` with `body` (any body when `nil`), or fails after `timeout`.
    private static func waitForAnswer(
        _ url: String, status: Int, body: String? = nil, timeout: Duration = .seconds(10)
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        var last = ""
        while ContinuousClock.now < deadline {
            let answer = try await HTTPFetch.send(url)
            if answer.status == status, body == nil || answer.text == body { return }
            last = "\(answer.status) \(answer.text)"
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("\(url) did not answer \(status) \(body ?? "") within \(timeout); last: \(last)")
    }

    @Test("a file in a new folder is served, edited in place, and removed, each without SIGHUP")
    func newFolderEditAndRemoval() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(Self.mapping("/first", "first"), to: "stubs/mappings/first.json")
        let server = try PokestubProcess(["serve", "--port", "0", "--stubs", folder.path + "/stubs"])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        try await Self.waitForAnswer(base + "/first", status: 200, body: "first")

        try folder.write(Self.mapping("/deep", "one"), to: "stubs/mappings/pokemon/deep/deep.json")
        try await Self.waitForAnswer(base + "/deep", status: 200, body: "one")

        // Rewritten in place (truncated and written, no rename): the new folder is watched too.
        try folder.write(Self.mapping("/deep", "two"), to: "stubs/mappings/pokemon/deep/deep.json")
        try await Self.waitForAnswer(base + "/deep", status: 200, body: "two")

        try folder.remove("stubs/mappings/pokemon/deep/deep.json")
        try await Self.waitForAnswer(base + "/deep", status: 404)
        try await Self.waitForAnswer(base + "/first", status: 200, body: "first")
        #expect(server.stderr.contains("(files changed)"))
    }
}
