import Foundation
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("The pokestub command line")
struct CommandLineTests {
    @Test("--version prints the version; --help lists the commands; every command has --help")
    func helpAndVersion() async throws {
        let version = try await PokestubProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "0.2.0\n")
        let help = try await PokestubProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("pokestub serve") && help.stdout.contains("pokestub check"))
        for command in ["serve", "check"] {
            let commandHelp = try await PokestubProcess.run([command, "--help"])
            #expect(commandHelp.status == 0)
            #expect(commandHelp.stdout.hasPrefix("Usage: pokestub \(command)"))
        }
    }

    @Test("a usage error exits 64 and says what is wrong")
    func usageErrors() async throws {
        let unknownCommand = try await PokestubProcess.run(["frobnicate"])
        #expect(unknownCommand.status == 64)
        #expect(unknownCommand.stderr.contains("unknown command \"frobnicate\""))
        let unknownFlag = try await PokestubProcess.run(["serve", "--colour", "red"])
        #expect(unknownFlag.status == 64)
        #expect(unknownFlag.stderr.contains("unknown option --colour"))
        let missingValue = try await PokestubProcess.run(["serve", "--port"])
        #expect(missingValue.status == 64)
        #expect(try await PokestubProcess.run([]).status == 64)
    }

    @Test("invalid configuration exits 78 naming the key, from a flag, the environment or config.json")
    func configurationErrors() async throws {
        let folder = try TemporaryDirectory()
        let badPort = try await PokestubProcess.run(["serve", "--port", "70000"], workingDirectory: folder.path)
        #expect(badPort.status == 78)
        #expect(badPort.stderr.contains("invalid configuration port (from --port)"))

        let badMode = try await PokestubProcess.run(
            ["serve"], environment: ["POKESTUB_MODE": "bogus"], workingDirectory: folder.path)
        #expect(badMode.status == 78)
        #expect(badMode.stderr.contains("invalid configuration mode (from POKESTUB_MODE)"))

        try folder.write(#"{"journal": {"maxEntries": 10}, "colour": "red"}"#, to: "config.json")
        let unknownKey = try await PokestubProcess.run(["serve"], workingDirectory: folder.path)
        #expect(unknownKey.status == 78)
        #expect(unknownKey.stderr.contains("invalid configuration colour (from config.json): unknown key"))

        let missingFile = try await PokestubProcess.run(["serve", "--config", "/nonexistent/pokestub.json"])
        #expect(missingFile.status == 78)
        #expect(missingFile.stderr.contains("cannot read config file /nonexistent/pokestub.json"))
    }

    @Test("serve and check with a --config that does not set stubs use the stubs folder beside the config file")
    func stubsBesideConfigFile() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(#"{"port": 0}"#, to: "cdir/config.json")
        try folder.write(
            #"{"request": {"urlPath": "/a"}, "response": {"body": "one"}}"#, to: "cdir/stubs/mappings/a.json")
        let elsewhere = try TemporaryDirectory()  // the working directory, without a stubs folder
        let config = folder.path + "/cdir/config.json"

        let check = try await PokestubProcess.run(["check", "--config", config], workingDirectory: elsewhere.path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("\(folder.path)/cdir/stubs: 1 stubs in 1 files, no problems"))

        let server = try PokestubProcess(["serve", "--config", config], workingDirectory: elsewhere.path)
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        #expect(try await HTTPFetch.send(base + "/a").text == "one")
    }

    @Test("a quoted number or boolean in config.json exits 78 naming the key")
    func typedConfigFile() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(#"{"port": 0, "watchStubs": "false"}"#, to: "config.json")
        let result = try await PokestubProcess.run(["serve"], workingDirectory: folder.path)
        #expect(result.status == 78)
        #expect(result.stderr.contains(#"invalid configuration watchStubs (from config.json): must be a JSON boolean"#))
    }

    @Test("layers apply in order: defaults < config.json < POKESTUB_* < flags")
    func precedence() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(
            #"{"port": 0, "stubs": "\#(Repository.stubs)", "journal": {"maxEntries": 3}}"#, to: "config.json")
        func maxEntries(_ arguments: [String], _ environment: [String: String]) async throws -> JSONNumber {
            let server = try PokestubProcess(
                ["serve"] + arguments, environment: environment, workingDirectory: folder.path)
            defer { server.signal(SIGTERM) }
            let base = try await server.waitUntilListening()
            let health = try await HTTPFetch.send(base + "/__admin/health").text
            return JSONNumber(text: health, key: "maxEntries")
        }
        let fromFile = try await maxEntries([], [:])
        let fromEnvironment = try await maxEntries([], ["POKESTUB_JOURNAL_MAX_ENTRIES": "4"])
        let fromFlag = try await maxEntries(["--journal-max-entries", "5"], ["POKESTUB_JOURNAL_MAX_ENTRIES": "4"])
        #expect(fromFile.value == 3)
        #expect(fromEnvironment.value == 4)
        #expect(fromFlag.value == 5)
    }

    @Test("serve prints one listening line, answers from the shipped stubs, and exits 0 on SIGTERM")
    func serveAndStop() async throws {
        let server = try PokestubProcess(["serve", "--port", "0", "--stubs", Repository.stubs])
        let line = try await server.waitForLine(startingWith: "pokestub listening on ")
        #expect(line.contains("(2469 stubs from \(Repository.stubs), mode replay)"))
        let base = try await server.waitUntilListening()
        let pokemon = try await HTTPFetch.send(base + "/api/v2/pokemon/1/")
        #expect(pokemon.status == 200)
        #expect(pokemon.text.contains("\"name\":\"bulbasaur\""))
        let journal = try await HTTPFetch.send(base + "/__admin/requests").text
        #expect(journal.contains("\"url\": \"/api/v2/pokemon/1/\""))
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test("a stop signal sent the moment the listening line appears is never lost", arguments: [SIGINT, SIGTERM])
    func signalAtOnce(_ signal: Int32) async throws {
        // The listening line promises that signals are handled. Sent at once, a signal used to arrive before
        // libdispatch had installed its source (it does so on its own thread, later): the signal's disposition
        // was still SIG_IGN, and the daemon ran on. With few stubs to load the window is widest.
        let folder = try TemporaryDirectory()
        _ = try folder.write("", to: "stubs/__files/.keep")
        try FileManager.default.createDirectory(
            atPath: folder.path + "/stubs/mappings", withIntermediateDirectories: true)
        for attempt in 1...8 {
            let server = try PokestubProcess(["serve", "--port", "0", "--stubs", folder.path + "/stubs"])
            _ = try await server.waitForLine(startingWith: "pokestub listening on ")
            server.signal(signal)
            let status = await server.exitStatus(within: .seconds(15))
            #expect(status == 0, "attempt \(attempt): the daemon did not stop on the signal")
            if status != 0 { _ = await server.stop() }
        }
    }

    @Test("SIGINT also stops the server with status 0")
    func sigint() async throws {
        let server = try PokestubProcess(["serve", "--port", "0", "--stubs", Repository.stubs])
        _ = try await server.waitUntilListening()
        server.signal(SIGINT)
        // No SIGTERM fallback here: SIGINT alone must stop it.
        #expect(await server.exitStatus(within: .seconds(15)) == 0)
    }

    @Test("strict: SIGHUP reloads; a broken file is logged as path:line and the previous stubs keep serving")
    func sighupReload() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(#"{"request": {"urlPath": "/a"}, "response": {"body": "one"}}"#, to: "stubs/mappings/a.json")
        let server = try PokestubProcess(["serve", "--port", "0", "--stubs", folder.path + "/stubs", "--strict"])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        #expect(try await HTTPFetch.send(base + "/a").text == "one")

        try folder.write(
            "{\n  \"request\": {\"urlPath\": \"/a\"},\n  \"response\": {\"body\": 1 2}\n}", to: "stubs/mappings/a.json")
        server.signal(SIGHUP)
        try await server.waitForError(containing: "stubs/mappings/a.json:3: ")
        #expect(try await HTTPFetch.send(base + "/a").text == "one")

        try folder.write(#"{"request": {"urlPath": "/a"}, "response": {"body": "two"}}"#, to: "stubs/mappings/a.json")
        server.signal(SIGHUP)
        try await server.waitForError(containing: "reloaded 1 stubs")
        #expect(try await HTTPFetch.send(base + "/a").text == "two")
    }

    /// WireMock 2.35 starts on a tree whose stubs call a helper it lacks and answers those with an error; a
    /// malformed file is an error for that file only.
    @Test("serve starts on a tree with a broken file and a stub it cannot serve, logging each; strict exits 65")
    func servesWhatLoads() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(#"{"request": {"urlPath": "/a"}, "response": {"body": "a"}}"#, to: "stubs/mappings/a.json")
        try folder.write(
            #"{"request": {"urlPath": "/h"}, "response": {"body": "{{appHelper request.path}}"}}"#,
            to: "stubs/mappings/h.json")
        try folder.write(#"{"request": {"urlPath": "/b"}, "#, to: "stubs/mappings/b.json")
        let stubs = folder.path + "/stubs"
        let server = try PokestubProcess(
            ["serve", "--port", "0", "--stubs", stubs, "--global-response-templating", "--watch-stubs", "false"])
        defer { server.signal(SIGTERM) }
        let base = try await server.waitUntilListening()
        #expect(try await HTTPFetch.send(base + "/a").text == "a")
        let helper = try await HTTPFetch.send(base + "/h")
        #expect(helper.status == 500 && helper.text.contains(#"unsupported helper \"appHelper\""#), "\(helper.text)")
        #expect(try await HTTPFetch.send(base + "/b").status == 404)
        try await server.waitForError(containing: "1 problem(s) left their files out, 1 warning(s)")
        #expect(server.stderr.contains("error: \(stubs)/mappings/b.json:1: "), "\(server.stderr)")
        #expect(server.stderr.contains("warning: \(stubs)/mappings/h.json:1: response.body:"), "\(server.stderr)")

        let strict = try await PokestubProcess.run(
            ["serve", "--port", "0", "--stubs", stubs, "--global-response-templating"],
            environment: ["POKESTUB_STRICT": "true"])
        #expect(strict.status == 65, "\(strict.stderr)")
        #expect(strict.stderr.contains("2 problem(s) in \(stubs)"), "\(strict.stderr)")
    }

    @Test("serve --strict refuses to start on broken stubs (65); serve refuses when the port is taken (69)")
    func startFailures() async throws {
        let folder = try TemporaryDirectory()
        try folder.write(#"{"request": {"urlPath": 5}}"#, to: "stubs/mappings/bad.json")
        let broken = try await PokestubProcess.run(
            ["serve", "--port", "0", "--stubs", folder.path + "/stubs", "--strict"])
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("stubs/mappings/bad.json:1: request.urlPath: must be a string"))

        let first = try PokestubProcess(["serve", "--port", "0", "--stubs", Repository.stubs])
        defer { first.signal(SIGTERM) }
        let base = try await first.waitUntilListening()
        let port = String(base.split(separator: ":").last!)
        let second = try await PokestubProcess.run(["serve", "--port", port, "--stubs", Repository.stubs])
        #expect(second.status == 69)
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(port)"))
    }

    @Test("--port 0 --port-file: once serving, the file holds the bound port and a newline, and health answers there")
    func portFile() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/pokestub.port"
        let server = try PokestubProcess(
            ["serve", "--port", "0", "--port-file", path, "--stubs", Repository.stubs], workingDirectory: folder.path)
        try await eventually("the port file exists", timeout: .seconds(20)) {
            FileManager.default.fileExists(atPath: path)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let port = try #require(Int(text.dropLast()), "port file holds \(text.debugDescription)")
        #expect(text == "\(port)\n" && port > 0)
        // The temporary file was renamed onto the port file: nothing else is left in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pokestub.port"])

        let health = try await HTTPFetch.send("http://127.0.0.1:\(port)/__admin/health")
        #expect(health.status == 200)
        #expect(health.text.contains("healthy"))
        #expect(try await server.waitUntilListening() == "http://127.0.0.1:\(port)")

        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "a graceful stop removes the port file")
    }

    @Test("a --port-file in a folder that does not exist exits 73 naming the path and the folder, before binding")
    func portFileFolderMissing() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/missing/pokestub.port"
        let result = try await PokestubProcess.run(
            ["serve", "--port", "0", "--port-file", path, "--stubs", Repository.stubs])
        #expect(result.status == 73)
        #expect(
            result.stderr.contains(
                "pokestub: cannot write the port file \(path): folder \(folder.path)/missing does not exist"),
            "\(result.stderr)")
        #expect(!result.stdout.contains("pokestub listening on"))
    }

    @Test("check reports every problem as path:line: message and exits 1; a good folder exits 0")
    func check() async throws {
        let good = try await PokestubProcess.run(["check", Repository.stubs])
        #expect(good.status == 0)
        #expect(good.stdout.contains("2469 stubs in 1009 files, no problems"))

        let folder = try TemporaryDirectory()
        try folder.write(#"{"request": {"urlPath": "/ok"}, "response": {}}"#, to: "mappings/ok.json")
        try folder.write(
            "{\n  \"request\": {\n    \"urlPath\": \"/x\"\n    \"method\": \"GET\"\n  }\n}", to: "mappings/syntax.json")
        try folder.write(
            "{\n  \"request\": {\"urlPath\": \"/y\"},\n  \"response\": {\"bodyFileName\": \"../../etc/passwd\"}\n}",
            to: "mappings/field.json")
        let bad = try await PokestubProcess.run(["check", folder.path, "--strict"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("\(folder.path)/mappings/syntax.json:4: invalid JSON"))
        #expect(bad.stdout.contains("\(folder.path)/mappings/field.json:3: response.bodyFileName:"))
        #expect(bad.stdout.contains("2 problem(s)"))
        // Not strict: the body file leading outside __files is a warning (WireMock answers 500 when hit).
        let lenient = try await PokestubProcess.run(["check", folder.path])
        #expect(lenient.status == 1)
        #expect(lenient.stdout.contains("\(folder.path)/mappings/field.json:3: warning: response.bodyFileName:"))
        #expect(lenient.stdout.contains("1 problem(s), 1 warning(s)"), "\(lenient.stdout)")
    }

    @Test("check warns, exit 0 even with --strict, of absent inside and/or, which WireMock 2.35.1 refuses to load")
    func checkLogicalAbsent() async throws {
        let folder = try TemporaryDirectory()
        let page = #"{"equalTo": "20"}, "offset": {"or": [{"absent": true}, {"equalTo": "0"}]}"#
        try folder.write(
            "{\"mappings\": [\n{\"request\": {\"urlPath\": \"/ok\"}},\n{\"request\": {\"urlPath\": \"/p\",\n"
                + "\"queryParameters\": {\"limit\": \(page)}}}\n]}",
            to: "mappings/pages.json")
        try folder.write(
            #"{"request": {"urlPath": "/c", "cookies": {"s": {"and": [{"absent": true}, {"doesNotMatch": "x"}]}}}}"#,
            to: "mappings/cookie.json")
        for strict in [false, true] {
            let result = try await PokestubProcess.run(["check", folder.path] + (strict ? ["--strict"] : []))
            #expect(result.status == 0, "\(result.stdout)")
            #expect(
                result.stdout.contains(
                    "\(folder.path)/mappings/pages.json:4: warning: mappings[1]: request.queryParameters.offset: "
                        + "absent inside and/or: WireMock 2.35.1 refuses this file at load"), "\(result.stdout)")
            #expect(
                result.stdout.contains(
                    "\(folder.path)/mappings/cookie.json:1: warning: request.cookies.s: absent inside and/or"))
            #expect(
                result.stdout.contains(
                    "3 stubs in 2 files, no problems, 2 warning(s) (tests WireMock 2.35.1 refuses to load; served "
                        + "as written)"), "\(result.stdout)")
        }
    }
}

/// Pulls a number out of a JSON text by key, enough for health checks in CLI tests.
struct JSONNumber {
    var value: Int?

    init(text: String, key: String) {
        guard let data = text.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) else {
            value = nil
            return
        }
        func find(_ node: Any) -> Int? {
            if let dictionary = node as? [String: Any] {
                if let number = dictionary[key] as? Int { return number }
                for child in dictionary.values { if let found = find(child) { return found } }
            }
            return nil
        }
        value = find(object)
    }
}

@Suite("pokestub import")
struct ImportCommandTests {
    static let har = #"""
        {"log": {"version": "1.2", "creator": {"name": "Safari", "version": "18"}, "entries": [
          {"startedDateTime": "2026-12-01T10:00:00.000Z", "time": 5,
           "request": {"method": "GET", "url": "https://pokeapi.co/api/v2/pokemon/1/", "httpVersion": "HTTP/2",
                       "headers": [{"name": ":authority", "value": "pokeapi.co"}, {"name": "Cookie", "value": "a=b"}],
                       "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2",
                        "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Date", "value": "x"}],
                        "content": {"size": 14, "mimeType": "application/json", "text": "{\"id\":1,\"v\":1}"},
                        "cookies": [], "redirectURL": "", "headersSize": -1, "bodySize": 14},
           "cache": {}, "timings": {"send": 0, "wait": 5, "receive": 0}},
          {"startedDateTime": "2026-12-01T10:00:01.000Z", "time": 5,
           "request": {"method": "GET", "url": "https://pokeapi.co/api/v2/pokemon/1/", "httpVersion": "HTTP/2",
                       "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2",
                        "headers": [{"name": "Content-Type", "value": "application/json"}],
                        "content": {"size": 14, "mimeType": "application/json", "text": "{\"id\":1,\"v\":2}"},
                        "cookies": [], "redirectURL": "", "headersSize": -1, "bodySize": 14},
           "cache": {}, "timings": {"send": 0, "wait": 5, "receive": 0}},
          {"startedDateTime": "2026-12-01T10:00:02.000Z", "time": 5,
           "request": {"method": "GET", "url": "https://pokeapi.co/sprites/1.png", "httpVersion": "HTTP/2",
                       "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/2",
                        "headers": [{"name": "Content-Type", "value": "image/png"}],
                        "content": {"size": 3, "mimeType": "image/png", "text": "AP8Q", "encoding": "base64"},
                        "cookies": [], "redirectURL": "", "headersSize": -1, "bodySize": 3},
           "cache": {}, "timings": {"send": 0, "wait": 5, "receive": 0}},
          {"startedDateTime": "2026-12-01T10:00:03.000Z", "time": 0,
           "request": {"method": "GET", "url": "https://pokeapi.co/blocked", "httpVersion": "HTTP/2",
                       "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
           "response": {"status": 0, "statusText": "", "httpVersion": "", "headers": [],
                        "content": {"size": 0, "mimeType": ""}, "cookies": [], "redirectURL": "",
                        "headersSize": -1, "bodySize": -1},
           "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}}
        ]}}
        """#

    @Test("a dry run lists what it would write and writes nothing; the import then writes it, deduplicated")
    func dryRunThenImport() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(Self.har, to: "capture.har")
        let stubs = folder.url.appendingPathComponent("stubs").path
        let dry = try await PokestubProcess.run(["import", file.path, "--stubs", stubs, "--dry-run"])
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        #expect(
            dry.stdout.split(separator: "\n").map(String.init) == [
                "new mappings/api/v2/pokemon/1/GET.json",
                "new mappings/sprites/1.png.GET.json (body __files/sprites/1.png.GET.png)",
                "\(stubs): would write 2 of 2 mappings from \(file.path)",
            ])
        #expect(!FileManager.default.fileExists(atPath: stubs))
        let imported = try await PokestubProcess.run(["import", file.path, "--stubs", stubs])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(imported.stdout.contains("\(stubs): wrote 2 of 2 mappings"))
        let mapping = try String(contentsOfFile: stubs + "/mappings/api/v2/pokemon/1/GET.json", encoding: .utf8)
        #expect(mapping.contains(#""v" : 2"#) || mapping.contains(#""v": 2"#), "the last entry wins: \(mapping)")
        #expect(!mapping.contains("Date"))
        let png = FileManager.default.contents(atPath: stubs + "/__files/sprites/1.png.GET.png")
        #expect(png == Data([0x00, 0xFF, 0x10]))
        let check = try await PokestubProcess.run(["check", stubs])
        #expect(check.status == 0, "\(check.stdout)")
        let again = try await PokestubProcess.run(["import", file.path, "--stubs", stubs, "--dry-run"])
        #expect(again.stdout.contains("unchanged mappings/api/v2/pokemon/1/GET.json"))
        #expect(again.stdout.contains("would write 0 of 2 mappings"))
    }

    @Test("import --host keeps that host's entries; a host the file lacks exits 65 listing the hosts it has")
    func importOneHost() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(Self.har, to: "capture.har")
        let stubs = folder.url.appendingPathComponent("stubs").path
        let kept = try await PokestubProcess.run([
            "import", file.path, "--stubs", stubs, "--host", "PokeAPI.co", "--dry-run",
        ])
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
        #expect(kept.stdout.contains("would write 2 of 2 mappings"))
        let missing = try await PokestubProcess.run(["import", file.path, "--stubs", stubs, "--host", "example.com"])
        #expect(missing.status == 65)
        #expect(
            missing.stderr.contains("no entry has the host example.com; the file holds pokeapi.co (4)"),
            "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stubs))
    }

    /// The loader's rules run before anything is written: an entry whose stub `check` and `serve` would refuse
    /// stops the import whole.
    @Test(
        "an entry whose stub would not load exits 65 naming the entry, and writes nothing",
        arguments: [
            (#""method": "GET""#, #""method": "GE\r\nT""#),
            (#""value": "application/json"}, {"name": "Date""#, #""value": "a\r\nX-Evil: 1"}, {"name": "Date""#),
        ])
    func unloadableEntry(_ good: String, _ bad: String) async throws {
        let folder = try TemporaryDirectory()
        #expect(Self.har.contains(good))
        let har = Self.har.replacingOccurrences(of: good, with: bad)
        let file = try folder.write(har, to: "capture.har")
        let stubs = folder.url.appendingPathComponent("stubs").path
        for dryRun in [true, false] {
            let result = try await PokestubProcess.run(
                ["import", file.path, "--stubs", stubs] + (dryRun ? ["--dry-run"] : []))
            #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("entry 0:"), "\(result.stderr)")
            #expect(result.stderr.contains("would not load"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: stubs))
    }

    /// With `globalResponseTemplating` every body is a template to the loader, `check` and `serve` alike: an
    /// entry whose body does not parse as one stops the import as any other entry that would not load.
    @Test("with globalResponseTemplating, an entry whose body is no template exits 65 and writes nothing")
    func entryThatIsNoTemplate() async throws {
        let folder = try TemporaryDirectory()
        let good = #""text": "{\"id\":1,\"v\":1}""#
        #expect(Self.har.contains(good))
        let har = Self.har.replacingOccurrences(of: good, with: #""text": "{\"id\":\"{{#each x}}\"}""#)
        let file = try folder.write(har, to: "capture.har")
        let stubs = folder.url.appendingPathComponent("stubs").path
        let config = try folder.write(#"{"stubs": "stubs", "globalResponseTemplating": true}"#, to: "pokestub.json")
        let result = try await PokestubProcess.run(["import", file.path, "--config", config.path])
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("entry 0:"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stubs))
    }

    @Test("a file that is not a HAR log exits 65 naming what is wrong")
    func notHAR() async throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write(#"{"entries": []}"#, to: "bad.har")
        let result = try await PokestubProcess.run(["import", file.path, "--stubs", folder.path + "/stubs"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("not a HAR log: no log.entries array"))
    }
}
