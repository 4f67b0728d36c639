import Foundation
import PokestubDaemon
import PokestubTestSupport
import Testing

@testable import pokestub

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `pokestub serve` under a low open-files limit, as launchd starts jobs (soft limit 256): it raises the soft
/// limit to what `limits.maxConnections` needs, or, when the hard limit is short too, lowers the connection
/// limit to what fits and says so, so that clients past it get the overflow reserve's 503 instead of waiting.
@Suite("The open-files limit: raised at start, or limits.maxConnections lowered to fit")
struct OpenFileLimitTests {
    /// `pokestub serve --port 0` started by `/bin/sh` after `ulimit`, with its port file and standard error.
    private final class LimitedServe {
        let process: Process
        let portFile: String
        let errorFile: String

        init(ulimit: String, folder: TemporaryDirectory) throws {
            portFile = folder.path + "/pokestub.port"
            errorFile = folder.path + "/stderr.txt"
            _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", "ulimit \(ulimit) || exit 99; exec \"$0\" \"$@\"", try PokestubProcess.executable().path,
                "serve", "--port", "0", "--port-file", portFile, "--stubs", folder.path,
                "--watch-stubs", "false",
            ]
            process.environment = ["PATH": "/usr/bin:/bin"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle(forWritingAtPath: errorFile)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        var stderr: String { (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "" }

        /// The port, once the daemon serves.
        func port() async throws -> Int {
            var port: Int?
            try await eventually("pokestub writes its port file or exits", timeout: .seconds(20)) {
                port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap {
                    Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
                }
                return port != nil || process.exitStatus != nil
            }
            return try #require(port, "pokestub exited: \(stderr)")
        }

        deinit { process.killAndReap() }
    }

    private static func folder() throws -> TemporaryDirectory {
        try TemporaryDirectory.stubRoot(
            mappings: ["a.json": #"{"request": {"urlPath": "/a"}, "response": {"body": "a"}}"#])
    }

    @Test("a soft limit of 256 under a higher hard limit is raised")
    func raisesTheSoftLimit() async throws {
        let folder = try Self.folder()
        defer { folder.removeFolder() }
        let serve = try LimitedServe(ulimit: "-S -n 256", folder: folder)
        let port = try await serve.port()
        #expect(try await HTTPFetch.send("http://127.0.0.1:\(port)/a").status == 200)
        // Raised to the hard limit (as far as it goes where that is below the need, with a warning as well).
        let stderr = serve.stderr
        #expect(stderr.contains("open files: soft limit raised from 256 to "), "\(stderr)")
    }

    @Test("a hard limit of 256 lowers limits.maxConnections, and the connection past it gets 503 at once")
    func lowersTheConnectionLimit() async throws {
        let folder = try Self.folder()
        defer { folder.removeFolder() }
        let serve = try LimitedServe(ulimit: "-n 256", folder: folder)
        let port = try await serve.port()
        let stderr = serve.stderr
        let match = try #require(stderr.firstMatch(of: /serving at most (\d+) connections at once/), "\(stderr)")
        let served = try #require(Int(match.1))
        #expect(stderr.contains("open files: the limit is 256 (hard limit 256), below the "), "\(stderr)")
        #expect(served >= 1 && served < 256)

        // The served connections, each answered once and kept open, so all are accepted and held when one more
        // comes; it gets the overflow reserve's 503, not a place in the backlog.
        let idle = try (0..<served).map { _ in try RawConnection(port: port) }
        for connection in idle {
            try connection.send("GET /a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let first = await connection.receiveResponses(1)
            #expect(first.hasPrefix("HTTP/1.1 200"), "\(first)")
        }
        let extra = try RawConnection(port: port)
        try extra.send("GET /a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = await extra.receiveResponses(1)
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
        withExtendedLifetime(idle) {}
    }
}

/// ``OpenFileLimit``'s arithmetic against simulated systems: what Darwin and Linux answer to getrlimit and
/// setrlimit, without changing this process's limit.
@Suite("OpenFileLimit: the need, and the raise on Darwin's and Linux's terms")
struct OpenFileLimitArithmeticTests {
    /// A process's limits as a kernel keeps them: setrlimit fails above the hard limit and above `ceiling`
    /// (Darwin's `kern.maxfilesperproc`, or `RLIM_INFINITY` refused as Apple's setrlimit(2) says).
    final class SimulatedLimits {
        var soft: Int
        let hard: Int
        let ceiling: Int
        var attempts: [Int] = []

        init(soft: Int, hard: Int, ceiling: Int = .max) {
            self.soft = soft
            self.hard = hard
            self.ceiling = ceiling
        }

        func fit(_ configuration: Configuration) -> OpenFileLimit.Outcome {
            OpenFileLimit.fit(
                configuration,
                setLimit: { value in
                    self.attempts.append(value)
                    guard value <= self.hard, value <= self.ceiling, value < Int.max else { return false }
                    self.soft = value
                    return true
                },
                getLimits: { (self.soft, self.hard) })
        }
    }

    private static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

    @Test("the default configuration needs 1,024 connections, their reserve of 64, the listener, 3 per thread, 96")
    func defaultNeed() {
        let need = OpenFileLimit.need(for: Configuration(), maxConnections: 1_024, softLimit: 0)
        #expect(need == 1_088 + 1 + 3 * Self.cores + 96)
        var withAdminPort = Configuration()
        withAdminPort.adminPort = 0
        #expect(OpenFileLimit.need(for: withAdminPort, maxConnections: 1_024, softLimit: 0) == need * 2 - 96)
    }

    @Test("Darwin under launchd: soft 256, hard RLIM_INFINITY, which setrlimit refuses: raised to OPEN_MAX")
    func darwinLaunchd() {
        let limits = SimulatedLimits(soft: 256, hard: .max, ceiling: 24_576)
        let outcome = limits.fit(Configuration())
        #expect(limits.attempts == [.max, 10_240])
        #expect(outcome == .init(softBefore: 256, softAfter: 10_240, hard: .max, maxConnections: 1_024))
    }

    @Test("kern.maxfilesperproc below OPEN_MAX: raised to the need itself")
    func lowPerProcessCeiling() {
        let sufficient = OpenFileLimit.smallestSufficientLimit(for: Configuration())
        let limits = SimulatedLimits(soft: 256, hard: .max, ceiling: 5_000)
        let outcome = limits.fit(Configuration())
        #expect(limits.attempts == [.max, 10_240, sufficient])
        #expect(outcome.softAfter == sufficient)
        #expect(outcome.maxConnections == 1_024)
    }

    @Test("Linux under systemd or a shell: soft 1,024 raised to the hard limit; a soft limit that suffices stays")
    func linux() {
        let systemd = SimulatedLimits(soft: 1_024, hard: 524_288)
        #expect(systemd.fit(Configuration()).softAfter == 524_288)
        let raised = SimulatedLimits(soft: 20_000, hard: 20_000)
        #expect(
            raised.fit(Configuration())
                == .init(softBefore: 20_000, softAfter: 20_000, hard: 20_000, maxConnections: 1_024))
        #expect(raised.attempts.isEmpty)
    }

    @Test("a hard limit below the need: the most connections that fit, at least 1")
    func lowered() {
        for hard in [64, 256, 1_100] {
            for adminPort in [nil, 0] as [Int?] {
                var configuration = Configuration()
                configuration.adminPort = adminPort
                let outcome = SimulatedLimits(soft: hard, hard: hard).fit(configuration)
                let served = outcome.maxConnections
                #expect(served >= 1 && served < 1_024)
                let fits = OpenFileLimit.need(for: configuration, maxConnections: served, softLimit: hard) <= hard
                let oneMore = OpenFileLimit.need(for: configuration, maxConnections: served + 1, softLimit: hard)
                #expect(served == 1 ? true : fits, "hard \(hard): \(served) connections do not fit")
                #expect(oneMore > hard, "hard \(hard): \(served + 1) connections would fit too")
            }
        }
    }
}
