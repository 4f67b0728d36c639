import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@testable import PokestubDaemon

@Suite("Configuration: defaults < config.json < environment < flags")
struct ConfigurationTests {
    private func resolve(
        configFile: String? = nil, environment: [String: String] = [:], flags: [String: String] = [:],
        in directory: TemporaryDirectory
    ) throws -> (Configuration, configFile: String?) {
        try Configuration.resolve(
            configFile: configFile, environment: environment, flags: flags, workingDirectory: directory.path)
    }

    private func error(
        configFile: String? = nil, environment: [String: String] = [:], flags: [String: String] = [:],
        in directory: TemporaryDirectory
    ) -> ConfigurationError? {
        #expect(throws: ConfigurationError.self) {
            try resolve(configFile: configFile, environment: environment, flags: flags, in: directory)
        }
    }

    @Test("the defaults")
    func defaults() throws {
        try TemporaryDirectory.with { directory in
            let (configuration, file) = try resolve(in: directory)
            #expect(file == nil)
            #expect(configuration == Configuration())
            #expect(configuration.host == "127.0.0.1")
            #expect(configuration.port == 8080)
            #expect(configuration.stubs == "stubs")
            #expect(configuration.mode == .replay)
            #expect(configuration.upstream == "https://pokeapi.co")
            #expect(configuration.journalMaxEntries == 10_000)
            #expect(configuration.logLevel == .info)
        }
    }

    @Test("config.json in the working directory is read, nested keys included")
    func configFile() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(
                #"""
                {"port": 9000, "mode": "record-missing",
                 "journal": {"maxEntries": 5, "maxBodyBytes": 4096, "maxResponseBodyBytes": 8192},
                 "logLevel": "debug"}
                """#,
                to: "config.json")
            let (configuration, file) = try resolve(in: directory)
            #expect(file == "config.json")
            #expect(configuration.port == 9000)
            #expect(configuration.mode == .recordMissing)
            #expect(configuration.journalMaxEntries == 5)
            #expect(configuration.journalMaxBodyBytes == 4096)
            #expect(configuration.journalMaxResponseBodyBytes == 8192)
            // The daemon's journal keeps that many bytes of response bodies (the dashboard's and HAR's).
            var listening = configuration
            listening.port = 0
            let daemon = try PokestubDaemon(configuration: listening, stubFolder: .none)
            #expect(daemon.engine.journal.maxResponseBodyBytes == 8192)
            #expect(configuration.logLevel == .debug)
            #expect(configuration.host == "127.0.0.1")
        }
    }

    @Test("environment overrides the file, flags override the environment")
    func precedence() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(#"{"port": 9000, "host": "0.0.0.0", "journal": {"maxEntries": 5}}"#, to: "config.json")
            let environment = [
                "POKESTUB_PORT": "9001", "POKESTUB_JOURNAL_MAX_ENTRIES": "7",
                "POKESTUB_UPSTREAM": "http://127.0.0.1:1/",
                "POKESTUB_UNRELATED": "x",
            ]
            let fromEnvironment = try resolve(environment: environment, in: directory).0
            #expect(fromEnvironment.port == 9001)
            #expect(fromEnvironment.host == "0.0.0.0")
            #expect(fromEnvironment.journalMaxEntries == 7)
            #expect(fromEnvironment.upstream == "http://127.0.0.1:1")
            let fromFlags = try resolve(
                environment: environment, flags: ["port": "0", "journal.maxEntries": "3"], in: directory
            ).0
            #expect(fromFlags.port == 0)
            #expect(fromFlags.journalMaxEntries == 3)
            #expect(fromFlags.host == "0.0.0.0")
        }
    }

    @Test(
        "the upstream's scheme and host compare without regard to case and are kept lower-cased",
        arguments: [
            ("HTTPS://PokeAPI.co/", "https://pokeapi.co"), ("http://127.0.0.1:9000", "http://127.0.0.1:9000"),
            ("https://pokeapi.co/api/", "https://pokeapi.co/api"),
            ("Http://Example.com/Path", "http://example.com/Path"),
        ])
    func upstreamCase(value: String, expected: String) throws {
        try TemporaryDirectory.with { directory in
            let configuration = try resolve(flags: ["upstream": value], in: directory).0
            #expect(configuration.upstream == expected)
        }
    }

    @Test("names of environment variables and flags derive from the keys")
    func names() {
        #expect(Configuration.environmentVariable(for: "journal.maxEntries") == "POKESTUB_JOURNAL_MAX_ENTRIES")
        #expect(Configuration.environmentVariable(for: "logLevel") == "POKESTUB_LOG_LEVEL")
        #expect(Configuration.flagName(for: "journal.maxEntries") == "journal-max-entries")
        #expect(Configuration.flagName(for: "port") == "port")
    }

    @Test(
        "an unknown key in config.json names the key",
        arguments: [
            (#"{"prot": 8080}"#, "prot"),
            (#"{"journal": {"maxEntires": 5}}"#, "journal.maxEntires"),
            (#"{"journal": 5}"#, "journal"),
        ])
    func unknownKey(text: String, key: String) throws {
        try TemporaryDirectory.with { directory in
            try directory.write(text, to: "config.json")
            let error = error(in: directory)
            #expect(error?.key == key)
            #expect(error?.origin == "config.json")
            #expect(error?.description.contains(key) == true)
        }
    }

    @Test(
        "invalid values name their key and where they came from",
        arguments: [
            (["POKESTUB_PORT": "70000"], [:], "port", "POKESTUB_PORT"),
            (["POKESTUB_PORT": "80x"], [:], "port", "POKESTUB_PORT"),
            (["POKESTUB_MODE": "bogus"], [:], "mode", "POKESTUB_MODE"),
            (["POKESTUB_UPSTREAM": "ftp://x"], [:], "upstream", "POKESTUB_UPSTREAM"),
            (["POKESTUB_LOG_LEVEL": "loud"], [:], "logLevel", "POKESTUB_LOG_LEVEL"),
            ([:], ["port": "70000"], "port", "--port"),
            ([:], ["mode": "bogus"], "mode", "--mode"),
            ([:], ["upstream": "https://pokeapi.co/?x=1"], "upstream", "--upstream"),
            ([:], ["upstream": "https://pokeapi.co/#top"], "upstream", "--upstream"),
            ([:], ["upstream": "pokeapi.co"], "upstream", "--upstream"),
            ([:], ["journal.maxEntries": "-1"], "journal.maxEntries", "--journal-max-entries"),
            ([:], ["host": "a b"], "host", "--host"),
        ] as [([String: String], [String: String], String, String)])
    func invalidValues(environment: [String: String], flags: [String: String], key: String, origin: String) throws {
        try TemporaryDirectory.with { directory in
            let error = error(environment: environment, flags: flags, in: directory)
            #expect(error?.key == key)
            #expect(error?.origin == origin)
        }
    }

    @Test(
        "invalid values in config.json name the key",
        arguments: [
            (#"{"port": 70000}"#, "port"), (#"{"port": 80.5}"#, "port"), (#"{"port": true}"#, "port"),
            (#"{"mode": "bogus"}"#, "mode"), (#"{"upstream": "ftp://x"}"#, "upstream"), (#"{"stubs": ""}"#, "stubs"),
            (#"{"host": ["a"]}"#, "host"),
        ])
    func invalidFileValues(text: String, key: String) throws {
        try TemporaryDirectory.with { directory in
            try directory.write(text, to: "config.json")
            #expect(error(in: directory)?.key == key)
        }
    }

    @Test(
        "config.json values must have their JSON types: a quoted number or boolean is refused, naming the key",
        arguments: [
            (#"{"port": "0"}"#, "port", #"the string "0""#),
            (#"{"watchStubs": "false"}"#, "watchStubs", #"the string "false""#),
            (#"{"limits": {"maxConnections": "10"}}"#, "limits.maxConnections", #"the string "10""#),
            (#"{"adminPort": "9000"}"#, "adminPort", #"the string "9000""#),
            (#"{"rewriteUpstreamLinks": 1}"#, "rewriteUpstreamLinks", "not the number 1"),
            (#"{"recording": {"redactHeaders": "Cookie"}}"#, "recording.redactHeaders", #"the string "Cookie""#),
            (#"{"host": 127}"#, "host", "not the number 127"),
            (#"{"mode": null}"#, "mode", "not null"),
        ])
    func fileValuesKeepTheirTypes(text: String, key: String, says: String) throws {
        try TemporaryDirectory.with { directory in
            try directory.write(text, to: "config.json")
            let error = error(in: directory)
            #expect(error?.key == key)
            #expect(error?.origin == "config.json")
            #expect(error?.description.contains("invalid configuration \(key) (from config.json)") == true)
            #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
        }
    }

    @Test("the environment and flags give the same keys as text")
    func textLayers() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(#"{"watchStubs": true, "adminPort": 9000, "port": 1}"#, to: "config.json")
            let environment = [
                "POKESTUB_PORT": "0", "POKESTUB_WATCH_STUBS": "false", "POKESTUB_LIMITS_MAX_CONNECTIONS": "10",
                "POKESTUB_ADMIN_PORT": "",
            ]
            let configuration = try resolve(
                environment: environment, flags: ["recording.redactHeaders": "Cookie, X-Secret"], in: directory
            ).0
            #expect(configuration.port == 0)
            #expect(!configuration.watchStubs)
            #expect(configuration.limits.maxConnections == 10)
            #expect(configuration.adminPort == nil, "an empty POKESTUB_ADMIN_PORT means none")
            #expect(configuration.recording.redactedHeaders == ["Cookie", "X-Secret"])
        }
    }

    @Test("config.json takes null for no adminPort, and whole numbers written as 8080.0")
    func fileNullAndWholeDoubles() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(#"{"adminPort": null, "port": 8081.0}"#, to: "config.json")
            let configuration = try resolve(in: directory).0
            #expect(configuration.adminPort == nil)
            #expect(configuration.port == 8081)
        }
    }

    @Test("the shipped config.json sets only default values, and every key it sets is a known one")
    func shippedConfigFile() throws {
        let path = Repository.root.appendingPathComponent("config.json").path
        var configuration = Configuration()
        try configuration.apply(configFile: try Data(contentsOf: URL(fileURLWithPath: path)), path: "config.json")
        #expect(configuration == Configuration())
    }

    @Test("a config file that is not valid JSON names the file and line")
    func invalidJSON() throws {
        try TemporaryDirectory.with { directory in
            try directory.write("{\n  \"port\": 1,\n  oops\n}", to: "config.json")
            let error = error(in: directory)
            #expect(error?.key == "")
            #expect(error?.origin == "config.json:3")
        }
    }

    @Test("a relative stubs path in a config file resolves against the file's folder")
    func relativeStubs() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(#"{"stubs": "my-stubs"}"#, to: "etc/pokestub/config.json")
            let absolute = directory.url.appendingPathComponent("etc/pokestub/config.json").path
            let (configuration, file) = try resolve(configFile: absolute, in: directory)
            #expect(file == absolute)
            #expect(configuration.stubs == directory.url.appendingPathComponent("etc/pokestub/my-stubs").path)
            let relative = try resolve(configFile: "etc/pokestub/config.json", in: directory).0
            #expect(relative.stubs == "etc/pokestub/my-stubs")
        }
    }

    @Test("a stubs path equal to the default still resolves against the config file's folder")
    func defaultNamedStubs() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(#"{"stubs": "stubs"}"#, to: "etc/pokestub/config.json")
            let absolute = directory.url.appendingPathComponent("etc/pokestub/config.json").path
            let configuration = try resolve(configFile: absolute, in: directory).0
            #expect(configuration.stubs == directory.url.appendingPathComponent("etc/pokestub/stubs").path)
        }
    }

    @Test("a config file that does not set stubs serves the stubs folder beside it")
    func defaultStubsBesideConfigFile() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(#"{"port": 0}"#, to: "etc/pokestub/config.json")
            let absolute = directory.url.appendingPathComponent("etc/pokestub/config.json").path
            let fromAbsolute = try resolve(configFile: absolute, in: directory).0
            #expect(fromAbsolute.stubs == directory.url.appendingPathComponent("etc/pokestub/stubs").path)
            let fromRelative = try resolve(environment: ["POKESTUB_CONFIG": "etc/pokestub/config.json"], in: directory)
            #expect(fromRelative.0.stubs == "etc/pokestub/stubs")
            let fromFlag = try resolve(configFile: absolute, flags: ["stubs": "mine"], in: directory).0
            #expect(fromFlag.stubs == "mine", "a --stubs value is relative to the working directory")
        }
    }

    @Test("./config.json and no config file at all both leave the default stubs in the working directory")
    func defaultStubsInWorkingDirectory() throws {
        try TemporaryDirectory.with { directory in
            #expect(try resolve(in: directory).0.stubs == "stubs")
            try directory.write(#"{"port": 0}"#, to: "config.json")
            let (configuration, file) = try resolve(in: directory)
            #expect(file == "config.json")
            #expect(configuration.stubs == "stubs")
        }
    }

    @Test("an absolute stubs path, or one from the environment, is kept as given")
    func stubsKept() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(#"{"stubs": "/srv/stubs"}"#, to: "etc/config.json")
            #expect(try resolve(configFile: "etc/config.json", in: directory).0.stubs == "/srv/stubs")
            let fromEnvironment = try resolve(
                configFile: "etc/config.json", environment: ["POKESTUB_STUBS": "local"], in: directory
            ).0
            #expect(fromEnvironment.stubs == "local")
        }
    }

    @Test("POKESTUB_CONFIG names the file when --config is not given")
    func configFromEnvironment() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(#"{"port": 1234}"#, to: "other.json")
            let (configuration, file) = try resolve(environment: ["POKESTUB_CONFIG": "other.json"], in: directory)
            #expect(file == "other.json")
            #expect(configuration.port == 1234)
        }
    }

    @Test("a missing explicit config file is an error naming config and where it was named")
    func missingExplicitFile() throws {
        try TemporaryDirectory.with { directory in
            let fromFlag = error(configFile: "missing.json", in: directory)
            #expect(fromFlag?.key == "config")
            #expect(fromFlag?.origin == "--config")
            #expect(fromFlag?.message.contains("missing.json") == true)
            let fromEnvironment = error(environment: ["POKESTUB_CONFIG": "gone.json"], in: directory)
            #expect(fromEnvironment?.key == "config")
            #expect(fromEnvironment?.origin == "POKESTUB_CONFIG")
        }
    }
}
