import Foundation
import Testing

extension PokestubProcess {
    /// Runs `body` against `pokestub serve` started as a separate process on a port the system picks, the way a
    /// UI test uses the daemon, and always stops it.
    ///
    /// The daemon runs `serve --port 0 --stubs <stubs> --log-level warning` in the temporary folder (so no
    /// `config.json` is picked up), with the test process's environment minus every `POKESTUB_*` variable.
    /// Afterwards, also when `body` throws, it gets `SIGTERM` and up to 10 s to exit; a daemon that needs
    /// `SIGKILL` is recorded as an issue.
    ///
    /// ```swift
    /// try await PokestubProcess.serving(stubs: Repository.stubs) { baseURL in
    ///     let client = try PokemonClient(environment: ["POKEMON_URL": baseURL.absoluteString])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - stubs: The stub root to serve, as a path.
    ///   - body: The test, given the daemon's base URL (`http://127.0.0.1:PORT`).
    /// - Returns: What `body` returns.
    /// - Throws: ``TestFailure`` when there is no binary or the daemon does not report listening within 20 s
    ///   (with its output); else what `body` throws.
    package static func serving<Result>(
        stubs: String, isolation: isolated (any Actor)? = #isolation, _ body: (URL) async throws -> sending Result
    ) async throws -> sending Result {
        let daemon = try PokestubProcess(
            ["serve", "--port", "0", "--stubs", stubs, "--log-level", "warning"],
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("POKESTUB_") },
            workingDirectory: FileManager.default.temporaryDirectory.path)
        let result: Result
        do {
            let listening = try await daemon.waitUntilListening()
            guard let baseURL = URL(string: listening) else { throw TestFailure("not a URL: \(listening)") }
            result = try await body(baseURL)
        } catch {
            await daemon.stopRecordingSlowExit()
            throw error
        }
        await daemon.stopRecordingSlowExit()
        return result
    }

    private func stopRecordingSlowExit() async {
        if !(await stop(gracePeriod: .seconds(10))) {
            Issue.record("pokestub did not exit within 10 s of SIGTERM; killed it")
        }
    }
}
