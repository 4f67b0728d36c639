import Foundation
import PokestubCore
import PokestubDaemon
import Testing

@Suite("Recording configuration keys")
struct RecordingConfigurationTests {
    @Test("timeouts, link rewriting and redaction come from config.json, environment and flags")
    func layers() throws {
        let file =
            #"{"upstreamTimeoutMs": 1500, "rewriteUpstreamLinks": false, "recording": {"redactHeaders": ["X-Secret"], "largeBodyBytes": 10}}"#
        var configuration = Configuration()
        try configuration.apply(configFile: Data(file.utf8), path: "config.json")
        #expect(configuration.upstreamTimeoutMilliseconds == 1_500)
        #expect(configuration.upstreamConnectTimeoutMilliseconds == 5_000)
        #expect(!configuration.rewriteUpstreamLinks)
        #expect(configuration.recording.redactedHeaders == ["X-Secret"])
        #expect(configuration.recording.largeBodyBytes == 10)
        try configuration.apply(environment: [
            "POKESTUB_RECORDING_REDACT_QUERY_PARAMETERS": "token, pin", "POKESTUB_REWRITE_UPSTREAM_LINKS": "true",
            "POKESTUB_UPSTREAM_CONNECT_TIMEOUT_MS": "250",
        ])
        #expect(configuration.recording.redactedQueryWords == ["token", "pin"])
        #expect(configuration.rewriteUpstreamLinks)
        #expect(configuration.upstreamConnectTimeoutMilliseconds == 250)
        #expect(Configuration.flagName(for: "recording.redactHeaders") == "recording-redact-headers")
        try configuration.set("recording.redactHeaders", toText: "", from: "--recording-redact-headers")
        #expect(configuration.recording.redactedHeaders.isEmpty)
    }

    @Test("invalid values name the key")
    func invalid() {
        var configuration = Configuration()
        for (key, value) in [
            ("upstreamTimeoutMs", JSONValue.integer(0)), ("rewriteUpstreamLinks", .string("maybe")),
            ("recording.redactHeaders", .array([.integer(1)])), ("recording.largeBodyBytes", .integer(-1)),
        ] {
            #expect(throws: ConfigurationError.self) { try configuration.set(key, to: value, from: "test") }
            do { try configuration.set(key, to: value, from: "test") } catch {
                #expect(error.key == key)
            }
        }
    }
}
