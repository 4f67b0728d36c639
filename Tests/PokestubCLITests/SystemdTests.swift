import Foundation
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether systemd's notify protocol and socket activation exist here: on Linux only. On Darwin the daemon's
/// notifier and socket activation do nothing (`Sources/pokestub/SystemdNotifier+Darwin.swift`).
#if os(Linux)
    let systemdProtocolsExist = true
#else
    let systemdProtocolsExist = false
#endif

@Suite("Running under systemd", .enabled(if: systemdProtocolsExist, "systemd's protocols are Linux only"))
struct SystemdTests {
    @Test("the daemon says READY once listening, RELOADING and READY around SIGHUP, and STOPPING on SIGTERM")
    func notifyProtocol() async throws {
        let notify = try NotifySocket()
        let server = try PokestubProcess(
            ["serve", "--port", "0", "--stubs", Repository.stubs], environment: ["NOTIFY_SOCKET": notify.path])
        defer { server.signal(SIGKILL) }
        let ready = await notify.messages(until: "READY=1")
        #expect(ready.last?.contains("READY=1") == true)
        #expect(ready.last?.contains("STATUS=serving 2469 stubs") == true)
        let base = try await server.waitUntilListening()
        #expect(try await HTTPFetch.send(base + "/api/v2/pokemon/1/").status == 200)

        server.signal(SIGHUP)
        let reload = await notify.messages(until: "READY=1")
        #expect(reload.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
        #expect(reload.last?.contains("READY=1") == true)

        server.signal(SIGTERM)
        let stopping = await notify.messages(until: "STOPPING=1")
        #expect(stopping.last == "STOPPING=1")
        #expect(await server.waitForExit() == 0)
    }

    @Test("with LISTEN_FDS the daemon serves on the socket it was handed")
    func socketActivation() async throws {
        let listening = try ListeningSocket()
        // systemd sets LISTEN_PID to the service's pid after fork; a shell that execs the daemon keeps its pid.
        let script =
            "LISTEN_PID=$$ LISTEN_FDS=1 exec '\(try PokestubProcess.executable().path)' "
            + "serve --port 1 --stubs '\(Repository.stubs)'"
        let shell = try ShellProcess(script, passing: listening.descriptor)
        defer { shell.killAndReap() }
        let line = try await shell.waitForLine(startingWith: "pokestub listening on ")
        #expect(line.contains("http://127.0.0.1:\(listening.port) "))
        #expect(try await HTTPFetch.send("http://127.0.0.1:\(listening.port)/api/v2/pokemon/1/").status == 200)
    }
}

/// `/bin/sh -c script` started with `posix_spawn`, with `descriptor` as its fd 3 (as systemd passes a socket)
/// and its output in a file. Foundation's `Process` closes every other descriptor, so it cannot do this.
final class ShellProcess: Sendable {
    private let pid: pid_t
    private let outputPath: String

    init(_ script: String, passing descriptor: Int32) throws {
        outputPath =
            FileManager.default.temporaryDirectory.appendingPathComponent("pokestub-shell-\(UUID().uuidString)").path
        var actions = SpawnFileActions.make()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptor, 3)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var child: pid_t = 0
        let arguments = ["/bin/sh", "-c", script]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let result = posix_spawn(&child, "/bin/sh", &actions, nil, &argv, &envp)
        guard result == 0 else { throw TestFailure("posix_spawn: \(result)") }
        pid = child
    }

    func waitForLine(startingWith prefix: String, timeout: Duration = .seconds(20)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var text = ""
        while true {
            text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("no line starting with \(prefix); output: \(text)")
    }

    /// Sends SIGKILL, waits for the shell (the daemon it became) to exit, and removes its output file.
    func killAndReap() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        unlink(outputPath)
    }
}
