import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@testable import PokestubDaemon

@Suite("Configuration keys: one table for the parser, serve --help and Docs/Configuration.md")
struct ConfigurationKeyTests {
    static let page = "Docs/Configuration.md"
    static let begin = "<!-- configuration-table:begin -->\n"
    static let end = "<!-- configuration-table:end -->"

    @Test("Docs/Configuration.md's table is the one rendered from the keys")
    func documentedTable() throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(Self.page), encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "\(Self.page) has no \(Self.begin)")
        let finish = try #require(
            text.range(of: Self.end, range: start.upperBound..<text.endIndex), "\(Self.page) has no \(Self.end)")
        let expected = ConfigurationKey.markdownTable()
        #expect(
            String(text[start.upperBound..<finish.lowerBound]) == expected,
            "\(Self.page) between the configuration-table markers should read:\n\(expected)")
    }

    @Test("every key has one path, and its environment variable and flag derive from it")
    func names() {
        let paths = ConfigurationKey.all.map(\.path)
        #expect(Set(paths).count == paths.count)
        #expect(Configuration.keys == paths)
        let key = ConfigurationKey.named("limits.maxConnections")
        #expect(key?.environmentVariable == "POKESTUB_LIMITS_MAX_CONNECTIONS")
        #expect(key?.flagName == "limits-max-connections")
        #expect(key?.kind == .integer(1...100_000))
        #expect(ConfigurationKey.named("colour") == nil)
    }

    @Test("each key's default, written back through config.json, leaves the defaults unchanged")
    func defaultsRoundTrip() throws {
        for key in ConfigurationKey.all where key.defaultValue != .null || key.kind == .optionalPort {
            var configuration = Configuration()
            try configuration.set(key.path, to: key.defaultValue, from: "test")
            #expect(configuration == Configuration(), "\(key.path)")
        }
    }

    @Test("each key reads back the value it was set to")
    func readsWhatItWrites() throws {
        var configuration = Configuration()
        try configuration.set("limits.maxConnections", toText: "7", from: "--limits-max-connections")
        try configuration.set("recording.redactHeaders", to: .array([.string("X-Secret")]), from: "test")
        try configuration.set("adminPort", toText: "9000", from: "POKESTUB_ADMIN_PORT")
        #expect(ConfigurationKey.named("limits.maxConnections")?.value(in: configuration) == .integer(7))
        #expect(
            ConfigurationKey.named("recording.redactHeaders")?.value(in: configuration) == .array([.string("X-Secret")])
        )
        #expect(ConfigurationKey.named("adminPort")?.value(in: configuration) == .integer(9000))
    }

    @Test("serve --help lists every flag, with its default, within 100 columns")
    func helpOptions() {
        let help = ConfigurationKey.helpOptions()
        for key in ConfigurationKey.all {
            #expect(help.contains("  --\(key.flagName)"), "\(key.path)")
        }
        #expect(help.contains("--mode MODE                   what to do with requests: replay | record |"))
        #expect(help.contains("(default 8080)"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }
}
