import Foundation

/// Paths in this repository and beside it, found from this file's path, so tests run from any working
/// folder.
///
/// The layout is `<root>/Tests/PokestubTestSupport/Repository.swift`; the shared data folder is a sibling
/// of the repository, `<root>/../shared`. Symbolic links in this file's path are resolved first, so the paths
/// also hold when the tests are built from a throwaway package that links to the repository's folders.
package enum Repository {
    /// The repository root: three levels above this file.
    package static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped stubs, `stubs/` at the repository root, as a path.
    package static var stubs: String { root.appendingPathComponent("stubs").path }

    /// The PokeAPI data dump, `../shared/pokeapi` next to the repository, as a path.
    package static var pokeAPIDump: String {
        root.deletingLastPathComponent().appendingPathComponent("shared/pokeapi").path
    }

    /// The built `pokestub` binary.
    ///
    /// Candidates, in order: `POKESTUB_BINARY` when set and not empty; `pokestub` beside the running test
    /// binary (the test bundle `swift test` built, whatever its scratch path) and up to four folders above
    /// it; on Darwin, `pokestub` beside any loaded `.xctest` bundle or bundle executable; `.build/debug/pokestub`
    /// at the repository root.
    ///
    /// - Parameter environment: The variables to read; the process environment by default.
    /// - Returns: The first candidate that is an executable file, if any, and every candidate in order (for
    ///   an error message).
    package static func pokestubBinary(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (found: URL?, tried: [URL]) {
        builtExecutable(named: "pokestub", override: environment["POKESTUB_BINARY"])
    }

    /// An executable the package builds (`pokestub`, the stand-in app `PokedexStandIn`), found as
    /// ``pokestubBinary(environment:)`` finds `pokestub`.
    ///
    /// - Parameters:
    ///   - name: The executable's name.
    ///   - override: A path to try first, when not `nil` or empty.
    /// - Returns: The first candidate that is an executable file, if any, and every candidate in order.
    package static func builtExecutable(named name: String, override: String? = nil) -> (found: URL?, tried: [URL]) {
        var candidates: [URL] = []
        if let explicit = override, !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<5 {
            folder = folder.deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent(name))
        }
        // Bundles matter on Darwin only, where the tests load as an `.xctest` bundle into a runner; on Linux the
        // tests are an executable, found above. (Debian's Foundation 6.2.3 crashes in `Bundle.allBundles`.)
        #if canImport(Darwin)
            for bundle in [Bundle.main] + Bundle.allBundles {
                if bundle.bundleURL.pathExtension == "xctest" {
                    candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
                }
                if let executable = bundle.executableURL {
                    candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
                }
            }
        #endif
        candidates.append(root.appendingPathComponent(".build/debug/" + name))
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return (found, candidates)
    }
}
