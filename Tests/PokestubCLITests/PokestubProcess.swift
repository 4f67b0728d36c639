import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `pokestub` binary run as a separate process, the way users and systemd run it.
final class PokestubProcess: Sendable {
    /// The binary beside the test bundle (`.build/<config>/pokestub`).
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("pokestub").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("pokestub")
    }()

    private let process: Process
    private let output = OutputBuffer()

    /// What the process wrote, filled from pipe handlers on other threads.
    final class OutputBuffer: Sendable {
        private let text = Mutex((stdout: "", stderr: ""))
        func append(stdout: String) { text.withLock { $0.stdout += stdout } }
        func append(stderr: String) { text.withLock { $0.stderr += stderr } }
        var stdout: String { text.withLock { $0.stdout } }
        var stderr: String { text.withLock { $0.stderr } }
    }

    /// Starts `pokestub` with arguments, an environment (nothing inherited but PATH) and a working folder.
    init(_ arguments: [String], environment: [String: String] = [:], workingDirectory: String? = nil) throws {
        process = Process()
        process.executableURL = PokestubProcess.executable
        process.arguments = arguments
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { lhs, _ in lhs }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let output = self.output
        out.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.append(stdout: text)
        }
        err.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.append(stderr: text)
        }
        try process.run()
    }

    /// Runs to the end and returns status and output (at most `timeout`, then it is killed).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
        timeout: Duration = .seconds(30)
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let running = try PokestubProcess(arguments, environment: environment, workingDirectory: workingDirectory)
        let status = await running.waitForExit(timeout: timeout)
        return (status, running.stdout, running.stderr)
    }

    var stdout: String { output.stdout }
    var stderr: String { output.stderr }

    /// Waits until standard output has a line starting with `prefix`, and returns it.
    func waitForLine(startingWith prefix: String, timeout: Duration = .seconds(20)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ProcessFailure(message: "no line starting with \(prefix); stdout: \(stdout) stderr: \(stderr)")
    }

    /// Waits until standard error contains `text`.
    func waitForError(containing text: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if stderr.contains(text) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ProcessFailure(message: "stderr never contained \(text); stderr: \(stderr)")
    }

    /// The base URL from the "pokestub listening on URL (...)" line.
    func waitUntilListening() async throws -> String {
        let line = try await waitForLine(startingWith: "pokestub listening on ")
        return String(line.dropFirst("pokestub listening on ".count).prefix { $0 != " " })
    }

    /// Sends a signal.
    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit (killing it after `timeout`) and returns its status.
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(20)) async -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning {
            process.terminate()
            while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        }
        try? await Task.sleep(for: .milliseconds(50))  // let the pipe handlers drain
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }
}

struct ProcessFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Paths of the repository, found from this file.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var stubs: String { root.appendingPathComponent("stubs").path }
}

/// A folder in the temporary directory, removed at the end.
final class TemporaryFolder: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pokestub-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ relative: String, _ text: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A GET for CLI tests.
func fetch(_ url: String) async throws -> (status: Int, body: String) {
    var request = URLRequest(url: URL(string: url)!)
    request.timeoutInterval = 10
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
}

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
