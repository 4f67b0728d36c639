// swift-tools-version: 6.0
import PackageDescription

/// One list of Swift settings for every target: Swift 6 language mode is set package-wide below.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "pokestub",
    // macOS 13 / iOS 16: the floors of the libraries apps link. Every target locks with PokestubLocking's
    // `Locked`, not Synchronization's `Mutex` and `Atomic` (macOS 15 / iOS 18), so one floor fits all.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "pokestub", targets: ["pokestub"]),
        .library(name: "PokemonClient", targets: ["PokemonClient"]),
        .library(name: "PokestubClient", targets: ["PokestubClient"]),
        // For test targets only: it links XCTest, which an app target cannot link, and `#if canImport(XCTest)`
        // does not keep it out of an app's build in Xcode (reported in
        // https://forums.swift.org/t/xcode-not-respecting-canimport-xctest/46826), so it is a product of its own
        // beside PokestubClient.
        .library(name: "PokestubXCTest", targets: ["PokestubXCTest"]),
        .library(name: "PokestubTesting", targets: ["PokestubTesting"]),
        .library(name: "PokestubDaemon", targets: ["PokestubDaemon"]),
    ],
    targets: [
        // C adapters: system libraries from Debian, each imported by exactly one Swift target.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),

        // The one lock type every target uses (`Locked`, a pthread mutex with its value). C library only, so
        // it builds for iOS and macOS too.
        .target(name: "PokestubLocking", swiftSettings: swiftSettings),
        // One JSON value type with its parser and writers, shared by the server and the client libraries.
        // Foundation only, so it builds for iOS and macOS too.
        .target(name: "PokestubJSON", swiftSettings: swiftSettings),
        // The product: stub model, matching, serving, journal, recording, sessions, admin API. Pure Swift, no C.
        // PokeAPI's JSON Schemas are compiled in (Contract/PokeAPI/PokeAPISchemas.swift); their licence stays beside them.
        .target(
            name: "PokestubCore", dependencies: ["PokestubJSON", "PokestubLocking"],
            exclude: ["Contract/PokeAPI/LICENSE-pokeapi-data.txt"], swiftSettings: swiftSettings
        ),
        // Serving HTTP through libmicrohttpd: the only target that imports CMicroHTTPD.
        .target(
            name: "PokestubServer",
            dependencies: ["PokestubCore", "PokestubLocking", "CMicroHTTPD"],
            swiftSettings: swiftSettings
        ),
        // Talking to the upstream through libcurl: the only target that imports CCurl.
        .target(
            name: "PokestubUpstream",
            dependencies: ["PokestubCore", "PokestubLocking", "CCurl"],
            swiftSettings: swiftSettings
        ),
        // The composition root: store, upstream client, engine and servers built from a configuration, with
        // start, reload and stop. The command line, withStubServer and the tests all build pokestub through it.
        .target(
            name: "PokestubDaemon",
            dependencies: ["PokestubCore", "PokestubServer", "PokestubUpstream"],
            swiftSettings: swiftSettings
        ),
        // The daemon's command line. Thin: parses arguments, handles signals, systemd and the stub tree watcher.
        .executableTarget(
            name: "pokestub",
            dependencies: ["PokestubCore", "PokestubServer", "PokestubDaemon", "PokestubLocking"],
            swiftSettings: swiftSettings
        ),

        // Libraries for app and test code. Foundation (and PokestubLocking) only, so they build for iOS and macOS too.
        .target(name: "PokemonClient", dependencies: ["PokestubLocking"], swiftSettings: swiftSettings),
        .target(name: "PokestubClient", dependencies: ["PokestubJSON"], swiftSettings: swiftSettings),
        // XCTest attachments for PokestubClient's failed checks, on Apple platforms (XCTAttachment); empty
        // elsewhere (swift-corelibs-xctest has no attachments). Test targets only, as its product says.
        .target(name: "PokestubXCTest", dependencies: ["PokestubClient"], swiftSettings: swiftSettings),
        // In-process server for Linux and macOS tests.
        .target(
            name: "PokestubTesting",
            dependencies: ["PokestubJSON", "PokestubCore", "PokestubDaemon", "PokestubClient", "PokestubLocking"],
            swiftSettings: swiftSettings
        ),

        // Helpers every test target shares (temporary folders, raw sockets, the pokestub process, HTTP fetches).
        // Test code only: no product names it.
        .target(
            name: "PokestubTestSupport", dependencies: ["PokestubLocking"], path: "Tests/PokestubTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "PokestubJSONTests", dependencies: ["PokestubJSON"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PokestubDaemonTests",
            dependencies: ["PokestubDaemon", "PokestubCore", "PokestubTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PokestubCoreTests",
            dependencies: ["PokestubCore", "PokestubLocking", "PokestubTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PokestubServerTests",
            dependencies: [
                "PokestubCore", "PokestubServer", "PokestubUpstream", "PokestubDaemon", "PokestubTesting",
                "PokestubClient", "PokestubLocking", "PokestubTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PokestubCLITests",
            dependencies: ["pokestub", "PokestubDaemon", "PokestubTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PokestubClientTests",
            dependencies: [
                "PokestubClient", "PokestubTesting", "PokestubDaemon", "PokemonClient", "PokestubLocking",
                "PokestubTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        // Recording and replay against real upstreams on 127.0.0.1 (a scripted Python upstream and the PokeAPI dump).
        .testTarget(
            name: "PokestubRecordingTests",
            dependencies: [
                "PokestubCore", "PokestubServer", "PokestubUpstream", "PokestubDaemon", "PokestubLocking",
                "PokestubTestSupport",
            ],
            exclude: ["scripted_upstream.py"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PokemonClientTests",
            dependencies: ["PokemonClient", "PokestubTesting", "PokestubClient", "PokestubTestSupport"],
            swiftSettings: swiftSettings
        ),
        // The Swift examples of README.md, Docs/ and the DocC catalogs, compiled and run, importing only products.
        // Docs/XCUITest.md's UI tests launch PokedexStandIn, a stand-in for the iOS app: it reads POKEMON_URL
        // and uses PokemonClient as the app does. Test code only: no product names it.
        .executableTarget(
            name: "PokedexStandIn", dependencies: ["PokemonClient"], path: "Tests/PokedexStandIn",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "PokemonClient", "PokestubClient", "PokestubTesting", "PokestubTestSupport", "PokedexStandIn",
            ],
            swiftSettings: swiftSettings
        ),
        // Hostile input: what the fuzzers (Fuzz/) found, hostile admin JSON, regex bombs, over raw sockets too.
        .testTarget(
            name: "PokestubRobustnessTests",
            dependencies: ["PokestubCore", "PokestubServer", "PokestubTestSupport"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
