import Foundation
import PokestubLocking
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `scripted_upstream.py` run as a child process on 127.0.0.1 with a port it picks: the scripted routes, or
/// with `staticRoot` the PokeAPI dump. It logs every TCP connection it accepts to a file, so tests can count
/// pokestub's connections without opening any themselves. Always stopped by ``stop()`` or at deinit.
final class ScriptedUpstream: Sendable {
    let port: Int
    /// `http`, or `https` when started with a certificate.
    let scheme: String
    private let process: Process
    private let logPath: String

    /// The script, next to this file.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("scripted_upstream.py").path

    /// Starts the upstream and waits (at most 10 s, without blocking a thread) for it to report its port.
    ///
    /// - Parameters:
    ///   - staticRoot: A PokeAPI dump folder to serve instead of the scripted routes.
    ///   - tls: A certificate and key file to speak HTTPS with.
    static func start(
        staticRoot: String? = nil, tls: (certificate: String, key: String)? = nil
    ) async throws -> ScriptedUpstream {
        let logPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("pokestub-upstream-\(UUID().uuidString).log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: Data())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [ScriptedUpstream.script, logPath] + (staticRoot.map { ["--static", $0] } ?? [])
            + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
        process.environment = ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let buffer = Locked("")
        try process.run()
        // A reader thread of its own, not `readabilityHandler` on Dispatch's few workers, which other tests may hold.
        let reader = output.fileHandleForReading
        Thread {
            while case let data = reader.availableData, !data.isEmpty {
                buffer.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }.start()
        var found: Int?
        for _ in 0..<500 where found == nil && process.exitStatus == nil {
            let text = buffer.withLock { $0 }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }) {
                found = Int(line.dropFirst(5))
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        guard let found else {
            process.killAndReap()
            throw TestFailure("the scripted upstream did not start (\(buffer.withLock { $0 }))")
        }
        return ScriptedUpstream(
            process: process, port: found, scheme: tls == nil ? "http" : "https", logPath: logPath)
    }

    private init(process: Process, port: Int, scheme: String, logPath: String) {
        self.process = process
        self.port = port
        self.scheme = scheme
        self.logPath = logPath
    }

    /// `http://127.0.0.1:<port>` (or `https://`).
    var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    /// Lines of the connection log.
    private var logLines: [Substring] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n")
    }

    /// TCP connections accepted so far.
    var connections: Int { logLines.filter { $0 == "connection" }.count }

    /// Requests received so far for a path with query (`GET /slow?ms=10`), or all requests.
    func requests(_ target: String? = nil) -> Int {
        logLines.filter { line in
            guard line.hasPrefix("request ") else { return false }
            guard let target else { return true }
            return line.dropFirst("request ".count) == target
        }.count
    }

    /// Stops the process with SIGKILL (SIGTERM may be ignored: an ignored signal stays ignored across exec,
    /// and the script has nothing to clean up) and waits for it.
    func stop() {
        process.killAndReap()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: logPath)
    }
}
