import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `pokestub` binary as a separate process, the way a UI test uses the daemon, and always
/// terminates it.
enum PokestubDaemon {
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `pokestub serve --port 0 --stubs <stubs>`, reads the URL from its
    /// `pokestub listening on http://127.0.0.1:PORT (...)` line, runs `body` with it, then sends SIGTERM (and
    /// SIGKILL if it has not exited within 10 s) — also when `body` throws.
    ///
    /// - Parameters:
    ///   - stubs: The stub root to serve.
    ///   - body: The test, given the daemon's base URL.
    /// - Returns: What `body` returns.
    static func run<Result>(
        stubs: String, isolation: isolated (any Actor)? = #isolation, _ body: (URL) async throws -> Result
    ) async throws -> Result {
        let binary = RepositoryLayout.pokestubBinary()
        guard let executable = binary.found else {
            throw StartFailure(
                description: "no pokestub binary; build it with swift build (looked at "
                    + binary.tried.map(\.path).joined(separator: ", ") + ")")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", "0", "--stubs", stubs, "--log-level", "warning"]
        // A folder of its own, so no config.json is picked up, and no POKESTUB_* variables from the caller.
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("POKESTUB_") }
        let output = Output()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        stdout.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData, to: .out) }
        stderr.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData, to: .err) }
        defer {
            stop(process)
            stdout.fileHandleForReading.readabilityHandler = nil
            stderr.fileHandleForReading.readabilityHandler = nil
        }
        try process.run()

        let baseURL = try await waitForListeningLine(process: process, output: output)
        return try await body(baseURL)
    }

    /// Polls the output for the listening line for up to 20 s.
    private static func waitForListeningLine(process: Process, output: Output) async throws -> URL {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let url = output.listeningURL { return url }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        if let url = output.listeningURL { return url }
        throw StartFailure(
            description: "pokestub did not report listening (running: \(process.isRunning))\n"
                + "stdout: \(output.text(.out))\nstderr: \(output.text(.err))")
    }

    /// SIGTERM, up to 10 s for a clean exit, then SIGKILL.
    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        if process.isRunning {
            Issue.record("pokestub did not exit within 10 s of SIGTERM; killing it")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// The daemon's output so far, filled from the pipes' handlers.
    final class Output: Sendable {
        enum Stream {
            case out
            case err
        }

        private let streams = Mutex([Data(), Data()])

        func append(_ data: Data, to stream: Stream) {
            streams.withLock { $0[stream == .out ? 0 : 1].append(data) }
        }

        func text(_ stream: Stream) -> String {
            streams.withLock { String(decoding: $0[stream == .out ? 0 : 1], as: UTF8.self) }
        }

        /// The URL in `pokestub listening on http://127.0.0.1:PORT (...)`, once that line is complete.
        var listeningURL: URL? {
            let prefix = "pokestub listening on "
            for line in text(.out).split(separator: "\n") where line.hasPrefix(prefix) {
                let rest = line.dropFirst(prefix.count)
                guard let end = rest.firstIndex(of: " ") else { continue }
                return URL(string: String(rest[..<end]))
            }
            return nil
        }
    }
}
