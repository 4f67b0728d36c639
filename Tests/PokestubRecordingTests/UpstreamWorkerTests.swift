import Foundation
import PokestubCore
import PokestubLocking
import PokestubTestSupport
import PokestubUpstream
import Testing

/// The upstream workers under an upstream path that never answers: the wait for a worker counts against the
/// upstream timeout, and the stuck path holds at most half the workers, so other paths are still served.
@Suite("Upstream workers: bounded waits, and a stuck upstream path cannot starve the others")
struct UpstreamWorkerTests {
    @Test("12 requests to a path that never answers get 504 within the timeout; another path answers meanwhile")
    func stuckPath() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let timeout = 4_000
        let server = try RecordingServer(
            root: folder.path, mode: .proxy, upstream: upstream.baseURL, timeoutMilliseconds: timeout)
        defer { server.stop() }
        // The test's own client, with room for all 12 at once on one path (16 per path).
        let client = CurlUpstreamClient(configuration: CurlUpstreamConfiguration(workers: 32))
        defer { client.shutdown() }
        let answeredHolds = Locked(0)
        let started = ContinuousClock.now
        // More than the 8 workers: before the wait counted, the last 4 waited a whole timeout for a worker
        // and then a second one for the upstream, and every other path waited behind them.
        let holds = Task {
            try await withThrowingTaskGroup(of: (Int, String, Duration).self) { group in
                for number in 0..<12 {
                    group.addTask {
                        let answer = try await TestHTTP.send(
                            "GET", server.baseURL + "/hold?gate=never&n=\(number)", through: client)
                        answeredHolds.withLock { $0 += 1 }
                        let message = (try? JSONValue.parse(answer.body))?["message"]?.stringValue ?? ""
                        return (answer.status, message, ContinuousClock.now - started)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Once the upstream has the stuck path's share of the workers, another path is asked for.
        try await eventually("the upstream holds 4 requests") { upstream.requests() >= 4 }
        let other = try await server.send("GET", "/version?v=7")
        #expect(other.status == 200)
        #expect(answeredHolds.withLock { $0 } == 0, "another path waited until stuck requests were answered")

        let answers = try await holds.value
        #expect(answers.allSatisfy { $0.0 == 504 }, "\(answers)")
        // Each answer comes at the timeout, give or take the machine's load: none waits a timeout for a worker
        // and then another for the upstream.
        let slowest = answers.map(\.2).max() ?? .zero
        #expect(slowest < .milliseconds(timeout * 2 - 500), "slowest answer after \(slowest): \(answers)")
        #expect(upstream.requests("GET /hold?gate=never") <= 4 + 4, "at most half the workers per path at once")
        #expect(answers.contains { $0.1.contains("no upstream worker was free") }, "\(answers.map(\.1))")
        _ = try await TestHTTP.send("GET", upstream.baseURL + "/release?gate=never")
        #expect(folder.files.isEmpty)
    }
}
