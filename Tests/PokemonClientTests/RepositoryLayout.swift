import Foundation

/// Where the repository's shipped stubs and the built `pokestub` binary are, found from this file's path and
/// the test bundle's location.
enum RepositoryLayout {
    /// The repository root: three levels above this file (`Tests/PokemonClientTests/RepositoryLayout.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shipped stubs, `stubs/` at the repository root.
    static var stubs: String { root.appendingPathComponent("stubs").path }

    /// The built `pokestub` binary: `POKESTUB_BINARY` when set, else next to the test bundle (the build folder
    /// `swift test` used, whatever its scratch path), else `.build/debug/pokestub`.
    ///
    /// - Parameter environment: The variables to read; the process environment by default.
    /// - Returns: The candidates in that order, and the first that exists, if any.
    static func pokestubBinary(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (found: URL?, tried: [URL]) {
        var candidates: [URL] = []
        if let explicit = environment["POKESTUB_BINARY"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        for bundle in [Bundle.main] + Bundle.allBundles {
            if bundle.bundleURL.pathExtension == "xctest" {
                candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("pokestub"))
            }
            if let executable = bundle.executableURL {
                candidates.append(executable.deletingLastPathComponent().appendingPathComponent("pokestub"))
            }
        }
        candidates.append(root.appendingPathComponent(".build/debug/pokestub"))
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return (found, candidates)
    }
}
