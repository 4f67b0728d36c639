// swift-tools-version: 6.0
import Foundation
import PackageDescription

// libFuzzer targets for pokestub, in a package of their own so the main package stays as it is. Build and run
// them with `Fuzz/run.sh TARGET MINUTES` (see Fuzz/README.md); they need `--sanitize=fuzzer` and, for
// `@testable import PokestubCore` (its API is `package`, reachable from another package only through a
// testable import), `-enable-testing`.

/// SwiftPM names a path dependency after its folder: the repository root, whatever it was cloned as.
let pokestub = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

/// `PokestubCore` is not a product of the main package; `PokestubTesting` is, and brings it along.
let core: Target.Dependency = .product(name: "PokestubTesting", package: pokestub)

/// The daemon put together (libmicrohttpd, the engine, the store), for the target that talks to it over a socket.
let daemon: Target.Dependency = .product(name: "PokestubDaemon", package: pokestub)

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "pokestub-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // Input readers, invariants and the shipped stubs, shared by the fuzz targets.
        .target(name: "FuzzSupport", dependencies: [core], swiftSettings: swiftSettings),
        // The stub loader on arbitrary bytes (`StubLoader.parse`).
        .executableTarget(name: "FuzzStubLoader", dependencies: [core, "FuzzSupport"], swiftSettings: swiftSettings),
        // Request parsing and matching: URL, query, headers, JSON bodies, fuzz-built patterns.
        .executableTarget(name: "FuzzMatcher", dependencies: [core, "FuzzSupport"], swiftSettings: swiftSettings),
        // The admin API over an in-memory store and journal.
        .executableTarget(name: "FuzzAdmin", dependencies: [core, "FuzzSupport"], swiftSettings: swiftSettings),
        // Raw bytes into a running daemon over a loopback socket (Linux only; elsewhere it checks nothing).
        .executableTarget(
            name: "FuzzWire", dependencies: [core, daemon, "FuzzSupport"], swiftSettings: swiftSettings),
        // Recording file names and recorded mappings for hostile requests.
        .executableTarget(
            name: "FuzzRecordingNames", dependencies: [core, "FuzzSupport"], swiftSettings: swiftSettings),
        // Response templates (stub and request together) under the daemon's template budget.
        .executableTarget(
            name: "FuzzTemplate", dependencies: [core, daemon, "FuzzSupport"], swiftSettings: swiftSettings),
        // The XML and JSON body patterns under the matching budget.
        .executableTarget(
            name: "FuzzBodyPatterns", dependencies: [core, "FuzzSupport"], swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
