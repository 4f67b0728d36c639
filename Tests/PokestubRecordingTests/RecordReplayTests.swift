import Foundation
import PokestubCore
import PokestubTestSupport
import PokestubUpstream
import Testing

@Suite("Recording through libcurl and replaying with the upstream stopped")
struct RecordReplayTests {
    /// Records `targets` in `mode`, stops the upstream, replays from the same folder, and returns what the
    /// recording run and the replay run answered.
    private func recordThenReplay(
        _ targets: [String], mode: ServeMode = .recordMissing, folder: TemporaryDirectory
    ) async throws -> (recorded: [UpstreamResponse], replayed: [UpstreamResponse], upstream: ScriptedUpstream) {
        let upstream = try await ScriptedUpstream.start()
        let recorder = try RecordingServer(root: folder.path, mode: mode, upstream: upstream.baseURL)
        var recorded: [UpstreamResponse] = []
        for target in targets { recorded.append(try await recorder.send("GET", target)) }
        recorder.stop()
        upstream.stop()
        let replayer = try RecordingServer(root: folder.path, mode: .replay, upstream: upstream.baseURL)
        defer { replayer.stop() }
        var replayed: [UpstreamResponse] = []
        for target in targets { replayed.append(try await replayer.send("GET", target)) }
        return (recorded, replayed, upstream)
    }

    @Test("a recording of repeated query parameters and header fields answers exactly the values it recorded")
    func repeatedValues() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        let options = RecordingOptions(capturedHeaders: ["X-Trainer": false])
        let recorder = try RecordingServer(
            root: folder.path, mode: .recordMissing, upstream: upstream.baseURL, options: options)
        let trainers = [("X-Trainer", "misty"), ("X-Trainer", "ash")]
        let recorded = try await recorder.send("GET", "/echo?offset=40&offset=41", headers: trainers)
        #expect(recorded.status == 200)
        recorder.stop()
        upstream.stop()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/mappings")
        let name = try #require(names.first { $0.hasPrefix("echo") }, "\(names)")
        let request = try folder.json("mappings/" + name)["request"]
        #expect(request?["queryParameters"]?["offset"] == ["hasExactly": [["equalTo": "40"], ["equalTo": "41"]]])
        #expect(request?["headers"]?["X-Trainer"] == ["hasExactly": [["equalTo": "ash"], ["equalTo": "misty"]]])
        let replayer = try RecordingServer(root: folder.path, mode: .replay, upstream: upstream.baseURL)
        defer { replayer.stop() }
        let replayed = try await replayer.send("GET", "/echo?offset=41&offset=40", headers: trainers.reversed())
        #expect(replayed.status == 200)
        #expect(try JSONValue.parse(replayed.body)["target"] == "/echo?offset=40&offset=41")
        for target in ["/echo?offset=41&limit=20", "/echo?offset=40", "/echo?offset=40&offset=41&offset=41"] {
            #expect(try await replayer.send("GET", target, headers: trainers).status == 404, "\(target)")
        }
        for headers in [[("X-Trainer", "ash")], [("X-Trainer", "ash, misty")], trainers + [("X-Trainer", "brock")]] {
            let answer = try await replayer.send("GET", "/echo?offset=40&offset=41", headers: headers)
            #expect(answer.status == 404, "\(headers)")
        }
    }

    @Test("compressed bodies are passed on and written decoded, and replayed without Content-Encoding")
    func compressed() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let (recorded, replayed, _) = try await recordThenReplay(["/gzip", "/deflate", "/br"], folder: folder)
        for (index, name) in ["gzip", "deflate", "br"].enumerated() {
            #expect(recorded[index].status == 200)
            #expect(replayed[index].status == 200)
            // What the scripted upstream encodes (Python's json.dumps), decoded: the live answer.
            let sent = Data(#"{"greeting": "hello", "from": "/\#(name)", "n": 42}"#.utf8)
            #expect(recorded[index].body == sent, "\(name): the live answer is the upstream's decoded bytes")
            #expect(try JSONValue.parse(replayed[index].body) == JSONValue.parse(recorded[index].body), "\(name)")
            #expect(try JSONValue.parse(replayed[index].body)["from"] == .string("/" + name))
            #expect(replayed[index].headers["Content-Encoding"] == nil)
            #expect(replayed[index].headers["Content-Length"] == String(replayed[index].body.count))
            let mapping = try folder.json("mappings/\(name).GET.json")
            #expect(mapping["response"]?["jsonBody"]?["n"] == .integer(42))
            #expect(mapping["response"]?["headers"]?["Content-Encoding"] == nil)
            #expect(mapping["response"]?["headers"]?["Vary"] == .string("Accept-Encoding"))
        }
    }

    @Test("a chunked text body and a binary PNG replay byte for byte")
    func chunkedAndBinary() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let (recorded, replayed, _) = try await recordThenReplay(["/chunked", "/sprite.png"], folder: folder)
        #expect(recorded[0].body == Data("first line\nsecond line, café ☃\n".utf8))
        #expect(replayed[0].body == recorded[0].body)
        #expect(
            try folder.json("mappings/chunked.GET.json")["response"]?["body"]
                == .string("first line\nsecond line, café ☃\n"))
        #expect(try folder.json("mappings/chunked.GET.json")["response"]?["headers"]?["Transfer-Encoding"] == nil)
        #expect(recorded[1].body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(replayed[1].body == recorded[1].body)
        #expect(replayed[1].headers["Content-Type"] == "image/png")
        #expect(try folder.data("__files/sprite.png.GET.png") == recorded[1].body)
        #expect(
            try folder.json("mappings/sprite.png.GET.json")["response"]?["bodyFileName"]
                == .string("sprite.png.GET.png"))
    }

    @Test("a 301 is recorded, not followed, and its Location points at pokestub when served")
    func redirect() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let (recorded, replayed, upstream) = try await recordThenReplay(["/redirect"], folder: folder)
        #expect(upstream.requests("GET /target") == 0)
        #expect(recorded[0].status == 301)
        #expect(replayed[0].status == 301)
        let mapping = try folder.json("mappings/redirect.GET.json")
        #expect(mapping["response"]?["headers"]?["Location"] == .string(upstream.baseURL + "/target"))
        #expect(replayed[0].headers["Location"]?.hasSuffix("/target") == true)
        #expect(replayed[0].headers["Location"]?.hasPrefix(upstream.baseURL) == false)
    }

    @Test("several Set-Cookie fields stay separate and redacted; volatile headers are not written")
    func cookiesAndVolatile() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let (_, replayed, _) = try await recordThenReplay(["/cookies", "/volatile"], folder: folder)
        #expect(
            replayed[0].headers.values(for: "Set-Cookie") == [
                "session=<redacted>; Path=/; HttpOnly", "theme=<redacted>; Path=/", "tracking=<redacted>; Max-Age=60",
            ])
        let volatile = try folder.json("mappings/volatile.GET.json")["response"]?["headers"]?.objectValue ?? [:]
        #expect(Set(volatile.keys) == ["Cache-Control", "Content-Type", "ETag", "Server"])
    }

    @Test("upstream links in bodies point at pokestub when served and stay as recorded on disk")
    func links() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let (recorded, replayed, upstream) = try await recordThenReplay(["/links"], folder: folder)
        let onDisk = try folder.json("mappings/links.GET.json")["response"]?["jsonBody"]
        #expect(onDisk?["next"] == .string(upstream.baseURL + "/api/v2/pokemon/?offset=20&limit=20"))
        for response in [recorded[0], replayed[0]] {
            let json = try JSONValue.parse(response.body)
            let next = json["next"]?.stringValue ?? ""
            #expect(next.hasPrefix("http://127.0.0.1:") && !next.hasPrefix(upstream.baseURL), "\(next)")
            #expect(next.hasSuffix("/api/v2/pokemon/?offset=20&limit=20"))
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(!text.contains("https://pokeapi.co/api"), "pokeapi.co links are rewritten too")
            #expect(text.contains("https://pokeapi.co.evil.example/x"))
        }
    }

    @Test("a slow upstream gives 504, a refused one 502, a cut-off one 502; journaled, nothing written")
    func failures() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(
            root: folder.path, mode: .record, upstream: upstream.baseURL, timeoutMilliseconds: 700)
        defer { server.stop() }
        let slow = try await server.send("GET", "/slow?ms=3000")
        #expect(slow.status == 504)
        let slowJSON = try JSONValue.parse(slow.body)
        #expect(slowJSON["upstream"] == .string(upstream.baseURL))
        #expect(slowJSON["error"] == .string("timeout"))
        #expect(slowJSON["url"] == .string(upstream.baseURL + "/slow?ms=3000"))
        let cut = try await server.send("GET", "/cut")
        #expect(cut.status == 502)
        #expect(try JSONValue.parse(cut.body)["error"] == .string("failed"))
        let reserved = try ListeningSocket.refusingPort()
        defer { withExtendedLifetime(reserved) {} }
        let port = reserved.port
        let refusing = try RecordingServer(
            root: folder.path, mode: .recordMissing, upstream: "http://127.0.0.1:\(port)")
        defer { refusing.stop() }
        let refused = try await refusing.send("GET", "/api/v2/pokemon/1/")
        #expect(refused.status == 502)
        let refusedJSON = try JSONValue.parse(refused.body)
        #expect(refusedJSON["upstream"] == .string("http://127.0.0.1:\(port)"))
        #expect(refusedJSON["error"] == .string("unreachable"))
        let refusedMessage = refusedJSON["message"]?.stringValue ?? ""
        #expect(refusedMessage.contains("onnect"))
        #expect(folder.files.isEmpty, "\(folder.files)")
        let (_, journal) = try await server.admin("GET", "/requests")
        let statuses = journal["requests"].flatMap { value -> [JSONValue]? in
            if case .array(let items) = value { return items.compactMap { $0["response"]?["status"] } }
            return nil
        }
        #expect(statuses == [.integer(502), .integer(504)])
        #expect(try await refusing.admin("GET", "/requests/unmatched").1["requests"] != .array([]))
    }

    /// RFC 9112 §2.2 and RFC 9110 §5.5: libcurl ends a header line at a bare LF too, and keeps NUL and bare CR
    /// in a value; thousands of fields overflow what libmicrohttpd can send. None of these is passed on.
    @Test(
        "an upstream answer whose header fields cannot be passed on gets 502 naming why, journaled, nothing written",
        arguments: [
            ("many", "more than 500 header fields"), ("bare-lf", "does not end in crlf"),
            ("nul", "nul"), ("bare-cr", "nul, cr or lf|carriage return"),
        ])
    func unpassableHeaderFields(_ kind: String, _ reason: String) async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        for mode in [ServeMode.record, .proxy] {
            let server = try RecordingServer(root: folder.path, mode: mode, upstream: upstream.baseURL)
            defer { server.stop() }
            let answer = try await server.send("GET", "/bad-header/\(kind)")
            #expect(answer.status == 502, "\(mode) \(kind): \(String(decoding: answer.body, as: UTF8.self))")
            let message = try JSONValue.parse(answer.body)["message"]?.stringValue ?? ""
            // libcurl refuses a NUL itself ("Nul byte in header"), and curl 8 a bare CR too ("carriage return
            // found in header"); pokestub the rest.
            let reasons = reason.split(separator: "|")
            #expect(reasons.contains { message.lowercased().contains($0) }, "\(mode) \(kind): \(message)")
            #expect(!answer.headers.contains("X-Injected"))
            let (_, journal) = try await server.admin("GET", "/requests")
            let statuses = journal["requests"].flatMap { value -> [JSONValue]? in
                if case .array(let items) = value { return items.compactMap { $0["response"]?["status"] } }
                return nil
            }
            #expect(statuses == [.integer(502)], "\(mode) \(kind)")
        }
        #expect(folder.files.isEmpty, "\(folder.files)")
    }

    @Test("concurrent identical misses make one upstream call and one file")
    func concurrentMisses() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .recordMissing, upstream: upstream.baseURL)
        defer { server.stop() }
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<8 { group.addTask { try await server.send("GET", "/counter").body } }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(upstream.requests("GET /counter") == 1)
        // One answer for all: a request that arrives after the stub is written is answered from it, in the
        // stub's own JSON spelling, so the answers are compared as JSON.
        let answers = try bodies.map { try JSONValue.parse($0) }
        #expect(answers.allSatisfy { $0 == answers[0] }, "\(bodies.map { String(decoding: $0, as: UTF8.self) })")
        #expect(try JSONValue.parse(bodies[0])["calls"] == .integer(1))
        #expect(folder.files == ["mappings/counter.GET.json"])
        let again = try await server.send("GET", "/counter")
        #expect(try JSONValue.parse(again.body) == JSONValue.parse(bodies[0]), "served from the recorded stub")
        #expect(upstream.requests("GET /counter") == 1)
    }

    @Test("replay makes no upstream connection at all, not even for a miss")
    func replayStaysOffline() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .replay, upstream: upstream.baseURL)
        defer { server.stop() }
        let miss = try await server.send("GET", "/gzip")
        #expect(miss.status == 404)
        #expect(server.client.statistics.transfers == 0)
        #expect(upstream.connections == 0)
        #expect(folder.files.isEmpty)
    }

    @Test("proxy mode forwards misses, serves stubs, and writes nothing")
    func proxy() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .proxy, upstream: upstream.baseURL)
        defer { server.stop() }
        let proxied = try await server.send("GET", "/br")
        #expect(proxied.status == 200)
        #expect(proxied.headers["Content-Encoding"] == nil)
        #expect(try JSONValue.parse(proxied.body)["from"] == .string("/br"))
        let stub = #"{"request": {"url": "/stubbed"}, "response": {"status": 200, "body": "local"}}"#
        #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
        #expect(String(decoding: try await server.send("GET", "/stubbed").body, as: UTF8.self) == "local")
        #expect(upstream.requests("GET /stubbed") == 0)
        #expect(folder.files.isEmpty)
    }

    @Test("record mode re-records every request in place and reports new, unchanged and changed")
    func reRecording() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .record, upstream: upstream.baseURL)
        defer { server.stop() }
        _ = try await server.send("GET", "/version?v=1")
        _ = try await server.send("GET", "/gzip")
        let (_, first) = try await server.admin("POST", "/recordings/stop")
        #expect(first["report"]?["new"] == .integer(2))
        #expect(server.engine.mode == .replay)
        let files = folder.files
        #expect(
            try await server.admin("POST", "/recordings/start", json: "{\"targetBaseUrl\": \"\(upstream.baseURL)\"}").0
                == 200)
        _ = try await server.send("GET", "/gzip")
        _ = try await server.send("GET", "/version?v=2")
        _ = try await server.send("GET", "/version?v=1")
        #expect(upstream.requests("GET /gzip") == 2, "record mode forwards even what a stub answers")
        let (status, second) = try await server.admin("POST", "/recordings/stop")
        #expect(status == 200)
        #expect(
            second["report"]
                == .object(["new": .integer(1), "unchanged": .integer(2), "changed": .integer(0), "total": .integer(3)])
        )
        #expect(folder.files.count == files.count + 1)
        #expect(server.engine.recordings.lifetimeReport == RecordingReport(new: 3, unchanged: 0, changed: 0))
    }

    @Test("a POST body goes upstream and into the pattern; another body is another recording")
    func postBodies() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .recordMissing, upstream: upstream.baseURL)
        defer { server.stop() }
        let json = [("Content-Type", "application/json")]
        let first = try await server.send("POST", "/echo", headers: json, body: Data(#"{"team": ["pikachu"]}"#.utf8))
        #expect(
            try JSONValue.parse(first.body)["body"]
                == .string(Data(#"{"team": ["pikachu"]}"#.utf8).base64EncodedString()))
        _ = try await server.send("POST", "/echo", headers: json, body: Data(#"{"team":["pikachu"]}"#.utf8))
        _ = try await server.send("POST", "/echo", headers: json, body: Data(#"{"team": []}"#.utf8))
        #expect(upstream.requests("POST /echo") == 2, "the same JSON with other spacing is the same recording")
        let mappings = folder.files.filter { $0.hasPrefix("mappings/echo.POST-b") }
        #expect(mappings.count == 2)
        for file in mappings {
            #expect(try folder.json(file)["request"]?["bodyPatterns"] != nil)
        }
    }

    @Test("a method that is not an RFC 9110 token gets 400 and is neither forwarded nor recorded")
    func methodNotAToken() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .record, upstream: upstream.baseURL)
        defer { server.stop() }
        for method in ["GET/../../x", "G\u{7F}T", "GET\\x"] {
            let connection = try RawConnection(port: server.server.port)
            try connection.send("\(method) /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let answer = await connection.receiveResponses(1)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(method.debugDescription): \(answer.prefix(80))")
        }
        #expect(upstream.requests() == 0)
        #expect(folder.files.isEmpty)
        #expect(StubLoader(root: folder.path).load().problems.isEmpty)
    }

    @Test("persist false serves the recording from memory and writes nothing")
    func inMemory() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .replay, upstream: upstream.baseURL)
        defer { server.stop() }
        let spec = "{\"targetBaseUrl\": \"\(upstream.baseURL)\", \"persist\": false, \"mode\": \"record-missing\"}"
        #expect(try await server.admin("POST", "/recordings/start", json: spec).0 == 200)
        let recorded = try await server.send("GET", "/sprite.png")
        let (_, stopped) = try await server.admin("POST", "/recordings/stop")
        #expect(
            stopped["mappings"].map { value -> Bool in
                if case .array(let items) = value { return items.first?["response"]?["base64Body"] != nil }
                return false
            } == true)
        #expect(folder.files.isEmpty)
        upstream.stop()
        let replayed = try await server.send("GET", "/sprite.png")
        #expect(replayed.status == 200)
        #expect(replayed.body == recorded.body)
    }

    @Test("with link rewriting off, bodies are served exactly as recorded")
    func rewritingOff() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(
            root: folder.path, mode: .recordMissing, upstream: upstream.baseURL, rewriteLinks: false)
        defer { server.stop() }
        let links = try await server.send("GET", "/links")
        let json = try JSONValue.parse(links.body)
        #expect(json["next"] == .string(upstream.baseURL + "/api/v2/pokemon/?offset=20&limit=20"))
        #expect(String(decoding: links.body, as: UTF8.self).contains("https://pokeapi.co/api/v2/pokemon/1/"))
    }

    @Test("local stubs keep answering while held upstream calls hold every server thread's worth of requests")
    func stubsAnswerDuringSlowUpstream() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let server = try RecordingServer(root: folder.path, mode: .recordMissing, upstream: upstream.baseURL)
        defer { server.stop() }
        let stub = #"{"request": {"url": "/local"}, "response": {"status": 200, "body": "here"}}"#
        #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
        // Clients of this test's own, so the test's other traffic cannot queue these requests behind others;
        // 8 workers allow the 4 held ones on one path at once.
        let heldClient = CurlUpstreamClient(
            configuration: CurlUpstreamConfiguration(
                connectTimeoutMilliseconds: 2_000, timeoutMilliseconds: 40_000, workers: 8))
        let localClient = CurlUpstreamClient(
            configuration: CurlUpstreamConfiguration(
                connectTimeoutMilliseconds: 2_000, timeoutMilliseconds: 10_000, workers: 1))
        defer {
            heldClient.shutdown()
            localClient.shutdown()
        }
        let gate = UUID().uuidString
        let finished = Finished()
        let held = (0..<4).map { index in
            Task {
                let answer = try await TestHTTP.send(
                    "GET", server.baseURL + "/hold?gate=\(gate)&n=\(index)", through: heldClient)
                finished.mark()
                return answer.status
            }
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while upstream.requests() < 4 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(upstream.requests() == 4, "the held requests reached the upstream")
        // The upstream answers none of them until released, so every local answer comes while all four wait.
        for _ in 0..<5 {
            let local = try await TestHTTP.send("GET", server.baseURL + "/local", through: localClient)
            #expect(String(decoding: local.body, as: UTF8.self) == "here")
        }
        #expect(finished.count == 0, "the local answers came while every held call was still waiting")
        _ = try await TestHTTP.send("GET", upstream.baseURL + "/release?gate=\(gate)", through: localClient)
        for task in held { #expect(try await task.value == 200) }
        #expect(finished.count == 4)
    }
}
