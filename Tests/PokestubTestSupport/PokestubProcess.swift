import Foundation
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `pokestub` binary run as a separate process, the way users, scripts and systemd run it, with its
/// standard output and error collected as they arrive.
///
/// The process is killed (`SIGKILL`) when the instance is released while it still runs, so a failing test
/// leaves no daemon behind. Every wait polls every 10 ms with `Task.sleep`: no thread is blocked.
///
/// ```swift
/// let server = try PokestubProcess(["serve", "--port", "0", "--stubs", Repository.stubs])
/// let base = try await server.waitUntilListening()  // "http://127.0.0.1:PORT"
/// server.signal(SIGTERM)
/// #expect(await server.waitForExit() == 0)
/// ```
package final class PokestubProcess: Sendable {
    private let process: Process
    private let output = OutputBuffer()

    /// What the process wrote so far, appended by the pipes' reader threads, and how many pipes are at end of file.
    private final class OutputBuffer: Sendable {
        private let text = Locked((stdout: "", stderr: "", closed: 0))
        func append(stdout: String) { text.withLock { $0.stdout += stdout } }
        func append(stderr: String) { text.withLock { $0.stderr += stderr } }
        func close() { text.withLock { $0.closed += 1 } }
        var stdout: String { text.withLock { $0.stdout } }
        var stderr: String { text.withLock { $0.stderr } }
        /// Whether both pipes reached end of file: the process and every child holding them are gone.
        var drained: Bool { text.withLock { $0.closed == 2 } }
    }

    /// Reads `handle` to its end on a thread of its own, handing each chunk to `append`.
    ///
    /// Not `readabilityHandler`, which runs on Dispatch's workers: on Linux that pool has about one thread per
    /// core, so when other tests block workers the output arrives seconds late.
    private static func read(
        _ handle: FileHandle, into output: OutputBuffer, _ append: @escaping @Sendable (String) -> Void
    ) {
        Thread {
            while case let data = handle.availableData, !data.isEmpty {
                append(String(decoding: data, as: UTF8.self))
            }
            output.close()
        }.start()
    }

    /// The `pokestub` binary to run: the first of ``Repository/pokestubBinary(environment:)``'s candidates
    /// that exists.
    ///
    /// - Returns: Its file URL.
    /// - Throws: ``TestFailure`` naming every place looked at when there is no binary (build it first).
    package static func executable() throws -> URL {
        let binary = Repository.pokestubBinary()
        guard let found = binary.found else {
            throw TestFailure(
                "no pokestub binary; build it with swift build (looked at "
                    + binary.tried.map(\.path).joined(separator: ", ") + ")")
        }
        return found
    }

    /// Starts `pokestub`.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name, such as `["serve", "--port", "0"]`.
    ///   - environment: The whole environment of the process: nothing else is inherited, except that
    ///     `PATH` is `/usr/bin:/bin` unless `environment` sets it, and that the sanitizer settings of a
    ///     `scripts/sanitizers.sh` run (``sanitizerVariables``) pass through.
    ///   - workingDirectory: The folder it starts in; the test process's own by default.
    /// - Throws: ``TestFailure`` when there is no binary; `Process`'s error when it cannot start.
    package init(_ arguments: [String], environment: [String: String] = [:], workingDirectory: String? = nil) throws {
        process = Process()
        process.executableURL = try PokestubProcess.executable()
        process.arguments = arguments
        let inherited = ProcessInfo.processInfo.environment.filter {
            PokestubProcess.sanitizerVariables.contains($0.key)
        }
        let defaults = inherited.merging(["PATH": "/usr/bin:/bin"]) { lhs, _ in lhs }
        process.environment = environment.merging(defaults) { lhs, _ in lhs }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let output = self.output
        try process.run()
        PokestubProcess.read(out.fileHandleForReading, into: output) { output.append(stdout: $0) }
        PokestubProcess.read(err.fileHandleForReading, into: output) { output.append(stderr: $0) }
    }

    /// Variables a sanitized `pokestub` needs from a `scripts/sanitizers.sh` run: the sanitizers' options
    /// (suppressions, and `log_path`, where the script counts reports) and what the script preloads
    /// (`LD_PRELOAD`). Without them a sanitized daemon reports on standard error and exits 66.
    package static let sanitizerVariables: Set<String> = [
        "TSAN_OPTIONS", "ASAN_OPTIONS", "LSAN_OPTIONS", "LD_PRELOAD", "SWIFT_BACKTRACE",
    ]

    /// Runs `pokestub` to the end.
    ///
    /// - Parameters:
    ///   - arguments: As for ``init(_:environment:workingDirectory:)``.
    ///   - environment: As for ``init(_:environment:workingDirectory:)``.
    ///   - workingDirectory: As for ``init(_:environment:workingDirectory:)``.
    ///   - timeout: How long it may run before it is terminated; 30 s by default.
    /// - Returns: The exit status and everything it wrote.
    /// - Throws: As ``init(_:environment:workingDirectory:)``.
    package static func run(
        _ arguments: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
        timeout: Duration = .seconds(30)
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let running = try PokestubProcess(arguments, environment: environment, workingDirectory: workingDirectory)
        let status = await running.waitForExit(timeout: timeout)
        return (status, running.stdout, running.stderr)
    }

    /// The process's id, e.g. to read `/proc/PID/maps`.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Everything written to standard output so far.
    package var stdout: String { output.stdout }
    /// Everything written to standard error so far.
    package var stderr: String { output.stderr }

    /// Waits until standard output has a line starting with `prefix`.
    ///
    /// - Parameters:
    ///   - prefix: The start of the line, such as `pokestub listening on `.
    ///   - timeout: How long to wait; 20 s by default.
    /// - Returns: The whole line, without its line break.
    /// - Throws: ``TestFailure`` with both outputs when the time passes or the process exits first.
    package func waitForLine(startingWith prefix: String, timeout: Duration = .seconds(20)) async throws -> String {
        // The output is looked at after every wake-up, the deadline's last one included: on a busy machine a
        // sleeping task may wake long after the line arrived, and then the line counts.
        let deadline = ContinuousClock.now + timeout
        while true {
            if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if process.exitStatus != nil || ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure(
            "no line starting with \(prefix) within \(timeout) (exit status \(process.exitStatus.map(String.init) ?? "none")); "
                + "stdout: \(stdout) stderr: \(stderr)")
    }

    /// Waits until standard error contains `text`.
    ///
    /// - Parameters:
    ///   - text: The text to wait for, anywhere in standard error.
    ///   - timeout: How long to wait; 20 s by default.
    /// - Throws: ``TestFailure`` with standard error when the time passes.
    package func waitForError(containing text: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            if stderr.contains(text) { return }
            if ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("stderr never contained \(text); stderr: \(stderr)")
    }

    /// Waits for the `pokestub listening on URL (...)` line the daemon prints once it serves.
    ///
    /// - Returns: The URL from that line, such as `http://127.0.0.1:41234`.
    /// - Throws: As ``waitForLine(startingWith:timeout:)`` (20 s).
    package func waitUntilListening() async throws -> String {
        let line = try await waitForLine(startingWith: "pokestub listening on ")
        return String(line.dropFirst("pokestub listening on ".count).prefix { $0 != " " })
    }

    /// Sends a signal to the process, such as `SIGHUP`.
    package func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit, terminating it (`SIGTERM`) when `timeout` passes first.
    ///
    /// - Parameter timeout: How long to wait before terminating it; 20 s by default.
    /// - Returns: The exit status, or the signal's number when a signal ended it.
    @discardableResult
    package func waitForExit(timeout: Duration = .seconds(20)) async -> Int32 {
        var status = await process.waitForExit(timeout: timeout)
        if status == nil {
            process.terminate()
            status = await process.waitForExit(timeout: .seconds(10))
            if status == nil { process.killAndReap() }
        }
        let drainDeadline = ContinuousClock.now + .seconds(5)
        while !output.drained && ContinuousClock.now < drainDeadline { try? await Task.sleep(for: .milliseconds(5)) }
        return status ?? process.exitStatus ?? SIGKILL
    }

    /// Waits for the process to exit by itself, at most `timeout`, sending it nothing.
    ///
    /// - Returns: The exit status (or the signal's number when a signal ended it), or `nil` when it is still
    ///   running at the deadline.
    package func exitStatus(within timeout: Duration) async -> Int32? {
        await process.waitForExit(timeout: timeout)
    }

    /// Stops the process: `SIGTERM`, then `SIGKILL` if it has not exited within `gracePeriod`; returns once
    /// it has exited.
    ///
    /// - Parameter gracePeriod: How long it may take to exit after `SIGTERM`; 10 s by default.
    /// - Returns: Whether it exited within the grace period (or had already exited); `false` when it had to
    ///   be killed.
    @discardableResult
    package func stop(gracePeriod: Duration = .seconds(10)) async -> Bool {
        guard process.exitStatus == nil else { return true }
        process.terminate()
        if await process.waitForExit(timeout: gracePeriod) != nil { return true }
        kill(process.processIdentifier, SIGKILL)
        _ = await process.waitForExit(timeout: .seconds(10))
        return false
    }

    deinit {
        if process.exitStatus == nil {
            kill(process.processIdentifier, SIGKILL)
        }
    }
}
