import Foundation
import PokestubCore
import PokestubLocking
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Requests that compute for long (templates, matching) run off libmicrohttpd's threads, so that while
/// twice as many of them as there are server threads run, health and ordinary stubs are answered, and the
/// daemon still stops within its grace period.
@Suite("Slow requests leave the server threads")
struct SlowRequestTests {
    /// A template that backtracks catastrophically on `hostileBody`: it takes its whole step budget.
    static let slowStub = TemplateBudgetTests.stub(
        name: "slow", path: "/slow", template: "{{regexExtract request.body '(a+)+$'}}")
    static let hostileBody = Array((String(repeating: "a", count: 40) + "b").utf8)

    @Test("while 2 × threads requests spend seconds in templates, health and a plain stub answer before any ends")
    func healthAnswersDuringSlowTemplates() async throws {
        // 6 million steps, 60 million regex steps: seconds in a debug build, the daemon's default is 500,000.
        try await HostileServer.with(templateLimits: TemplateLimits(maxSteps: 6_000_000)) { server in
            #expect(try await server.admin("POST", "/mappings", Self.slowStub).status == 201)
            let plain = #"{"request":{"urlPath":"/plain"},"response":{"status":200,"body":"plain"}}"#
            #expect(try await server.admin("POST", "/mappings", plain).status == 201)
            let threads = server.server.configuration.threads
            let ended = Locked(0)
            var slow: [Task<RawResponse, any Error>] = []
            for _ in 0..<(2 * threads) {
                slow.append(
                    Task {
                        defer { ended.withLock { $0 += 1 } }
                        return try await server.send("POST", "/slow", body: Self.hostileBody, timeout: .seconds(120))
                    })
            }
            // Every server thread has taken one: without leaving them, nothing else would be answered now.
            try await eventually("the slow requests reach the server", timeout: .seconds(20)) {
                server.server.requestsInFlight >= threads
            }
            let health = try await server.admin("GET", "/health")
            let plainAnswer = try await server.send("GET", "/plain")
            let endedMeanwhile = ended.withLock { $0 }
            #expect(health.status == 200)
            #expect(plainAnswer.status == 200 && plainAnswer.text == "plain")
            #expect(endedMeanwhile == 0, "a slow request ended before health was answered: the test proves nothing")
            for task in slow {
                let response = try await task.value
                // On the slow-request thread the template had its whole budget, and passed it.
                let message = try TemplateBudgetTests.overrun(response)
                #expect(message.hasSuffix("more than 6000000 steps (limits.maxTemplateSteps)"), "\(message)")
            }
        }
    }

    @Test("SIGTERM while slow requests compute: the daemon answers them 503 and exits within its grace period")
    func stopsWithinGrace() async throws {
        let root = try TemporaryDirectory.stubRoot(mappings: ["slow.json": Self.slowStub])
        let config = try root.write(#"{"limits": {"maxTemplateSteps": 1000000000}}"#, to: "config.json")
        let daemon = try PokestubProcess([
            "serve", "--config", config.path, "--port", "0", "--stubs", root.path, "--watch-stubs", "false",
        ])
        defer { daemon.signal(SIGKILL) }
        let base = try await daemon.waitUntilListening()
        let port = try #require(URL(string: base)?.port)
        // A billion steps: minutes of work for each, far past the 10 s grace period.
        var slow: [Task<RawResponse, any Error>] = []
        for _ in 0..<4 {
            slow.append(
                Task {
                    try await onOwnThread {
                        try RawResponse.exchange(
                            port: port, method: "POST", target: "/slow", body: Self.hostileBody, timeout: .seconds(60))
                    }
                })
        }
        // Health answers, and says every slow-request thread (one per core) is taken.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var running = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while running < min(cores, 4) && ContinuousClock.now < deadline {
            let health = try await HTTPFetch.send(base + "/__admin/health")
            running = try JSONValue.parse(health.body)["slowRequests"]?["running"]?.intValue ?? 0
            if running < min(cores, 4) { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(running == min(cores, 4))
        let stopping = ContinuousClock.now
        daemon.signal(SIGTERM)
        let status = await daemon.waitForExit(timeout: .seconds(30))
        #expect(status == 0)
        #expect(ContinuousClock.now - stopping < .seconds(14), "the grace period is 10 s")
        for task in slow {
            let response = try await task.value
            #expect(response.status == 503, "\(response.text.prefix(200))")
        }
    }
}
