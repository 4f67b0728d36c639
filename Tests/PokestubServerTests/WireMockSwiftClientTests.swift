import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// The requests mobileforming/WiremockClient (the Swift WireMock admin client iOS teams drive WireMock with
/// from XCUITest) sends, byte shape for byte shape: bodies made by `JSONSerialization` with `.prettyPrinted`,
/// ids as `UUID.uuidString` (upper case) in `uuid` and in paths, and `POST`s without a body for reset, save,
/// scenario reset and shutdown. Its builders were read from its sources (`Sources/WiremockClient/Stubbing/`,
/// `Networking/WiremockEndpoint.swift`); its responses are decoded as it decodes them (`MappingsResponse` reads
/// `meta.total`; `LoggedRequest` reads `url`, `absoluteUrl`, `method`, `body`, `headers` as strings).
@Suite("Every call of WireMock's Swift admin client, in its exact request shapes, over real sockets")
struct WireMockSwiftClientTests {
    /// What the client's `asData()` sends: pretty-printed `JSONSerialization` output.
    private static func body(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted])
    }

    /// `RequestMapping.asDict()` for a URL match condition and the optional parts.
    private static func requestDict(
        _ method: String, _ condition: String, _ url: String, extra: [String: Any] = [:]
    ) -> [String: Any] {
        [condition: url, "method": method].merging(extra) { $1 }
    }

    @Test("stubbing, updating, deleting, verifying, saving, resetting, the global delay and shutdown all answer 2xx")
    func everyCall() async throws {
        let root = try TemporaryDirectory.stubRoot(files: ["greeting.json": #"{"hello": "file"}"#])
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path) { server in
            func call(_ method: String, _ path: String, _ body: Data? = nil) async throws -> LiveServer.Response {
                let response = try await server.send(method, "/" + path, body: body)
                #expect(
                    (200..<300).contains(response.status), "\(method) /\(path): \(response.status) \(response.text)")
                return response
            }
            // isServerRunning: GET __admin/mappings, decoded as MappingsResponse (meta.total).
            let running = try await call("GET", "__admin/mappings")
            let meta = try JSONSerialization.jsonObject(with: running.body) as? [String: Any]
            #expect((meta?["meta"] as? [String: Any])?["total"] is Int)

            // postMapping with every request matcher the client builds (MatchCondition minus the XML ones).
            let id = UUID()
            let conditions: [(String, String)] = [
                ("equalTo", "a"), ("contains", "b"), ("matches", "[a-z]+"), ("doesNotMatch", "[0-9]+"),
                ("matchesJsonPath", "$.a"),
            ]
            var stubs: [(UUID, [String: Any])] = []
            for (index, (condition, value)) in conditions.enumerated() {
                stubs.append(
                    (
                        UUID(),
                        [
                            "uuid": UUID().uuidString, "priority": 3,
                            "request": Self.requestDict(
                                "POST", "urlPath", "/match/\(index)",
                                extra: [
                                    "headers": ["X-H": [condition: value]],
                                    "queryParameters": ["q": [condition: value]],
                                    "cookies": ["c": [condition: value]],
                                    "bodyPatterns": [[condition: value]],
                                ]),
                            "response": ["status": 200, "body": "matched \(condition)"],
                        ]
                    ))
            }
            let full: [String: Any] = [
                "uuid": id.uuidString, "priority": 1, "scenarioName": "login", "requiredScenarioState": "Started",
                "request": Self.requestDict(
                    "GET", "url", "/test/path",
                    extra: [
                        "headers": ["Accept": ["contains": "json"]], "cookies": ["session": ["equalTo": "abc"]],
                        "basicAuthCredentials": ["username": "ash", "password": "pikachu"],
                    ]),
                // ResponseDefinition.withStatusMessage(_:) adds "statusMessage".
                "response": [
                    "status": 200, "statusMessage": "Everything is fine", "body": #"{"key":"value"}"#,
                    "headers": ["Content-Type": "application/json"], "transformers": ["response-template"],
                ],
            ]
            _ = try await call("POST", "__admin/mappings", try Self.body(full))
            for (_, stub) in stubs { _ = try await call("POST", "__admin/mappings", try Self.body(stub)) }
            let json: [String: Any] = [
                "uuid": UUID().uuidString,
                "request": Self.requestDict(
                    "PUT", "urlPathPattern", "/json/.*",
                    extra: [
                        "bodyPatterns": [
                            ["equalToJson": #"{"a": [1, 2]}"#, "ignoreArrayOrder": true, "ignoreExtraElements": true]
                        ]
                    ]),
                "response": ["bodyFileName": "greeting.json", "status": 202],
            ]
            _ = try await call("POST", "__admin/mappings", try Self.body(json))
            let pattern: [String: Any] = [
                "uuid": UUID().uuidString, "request": Self.requestDict("DELETE", "urlPattern", "/pattern/[0-9]+\\?x=1"),
                "response": ["status": 204],
            ]
            _ = try await call("POST", "__admin/mappings", try Self.body(pattern))

            // The stubs answer what the client meant.
            let basic = "Basic " + Data("ash:pikachu".utf8).base64EncodedString()
            let answer = try await server.send(
                "GET", "/test/path",
                headers: ["Accept": "application/json", "Cookie": "session=abc", "Authorization": basic])
            #expect(answer.status == 200)
            #expect(answer.text == #"{"key":"value"}"#)
            let (_, listed) = try await server.admin("GET", "/mappings/\(id.uuidString)")
            #expect(listed["response"]?["statusMessage"] == .string("Everything is fine"))
            let withoutCookie = try await server.send(
                "GET", "/test/path", headers: ["Accept": "application/json", "Authorization": basic])
            #expect(withoutCookie.status == 404, "the cookie pattern is applied, not only accepted")
            let withoutAuth = try await server.send(
                "GET", "/test/path", headers: ["Accept": "application/json", "Cookie": "session=abc"])
            #expect(withoutAuth.status == 404, "the credentials are applied, not only accepted")
            for (index, (condition, _)) in conditions.enumerated() {
                let value = ["equalTo": "a", "doesNotMatch": "abc", "matchesJsonPath": #"{"a":1}"#][condition] ?? "ab"
                let matched = try await server.send(
                    "POST", "/match/\(index)?q=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                    headers: ["X-H": value, "Cookie": "c=\(value)"], body: Data(value.utf8))
                #expect(matched.status == 200, "\(condition): \(matched.text)")
            }
            #expect(try await server.send("PUT", "/json/1", body: Data(#"{"a": [2, 1], "b": 0}"#.utf8)).status == 202)
            #expect(try await server.send("DELETE", "/pattern/12?x=1").status == 204)

            // findRequests / verify: POST __admin/requests/find with RequestMapping.asData(), decoded as LoggedRequest.
            let find = try Self.body(
                Self.requestDict(
                    "GET", "url", "/test/path",
                    extra: [
                        "cookies": ["session": ["equalTo": "abc"]],
                        "basicAuthCredentials": ["username": "ash", "password": "pikachu"],
                    ]))
            let found = try await call("POST", "__admin/requests/find", find)
            let requests =
                (try JSONSerialization.jsonObject(with: found.body) as? [String: Any])?["requests"] as? [[String: Any]]
            #expect(requests?.count == 1)
            let logged = try #require(requests?.first)
            #expect(logged["url"] as? String == "/test/path")
            #expect(logged["method"] as? String == "GET")
            #expect((logged["headers"] as? [String: Any])?.values.allSatisfy { $0 is String } == true)
            #expect(logged["absoluteUrl"] as? String == server.baseURL + "/test/path")

            // updateMapping: PUT __admin/mappings/<UPPER-CASE UUID> with a mapping whose uuid is another one.
            var updated = full
            updated["uuid"] = UUID().uuidString
            updated["response"] = ["status": 200, "body": #"{"otherKey":"otherValue"}"#]
            _ = try await call("PUT", "__admin/mappings/\(id.uuidString)", try Self.body(updated))
            let afterUpdate = try await server.send(
                "GET", "/test/path", headers: ["Accept": "json", "Cookie": "session=abc", "Authorization": basic])
            #expect(afterUpdate.text == #"{"otherKey":"otherValue"}"#)

            // saveAllMappings, setGlobalDelay, resetAllScenarios, deleteMapping, deleteAllRequests, reset.
            _ = try await call("POST", "__admin/mappings/save")
            #expect(root.files.filter { $0.hasPrefix("mappings/") }.count == 8)
            _ = try await call("POST", "__admin/settings", try Self.body(["fixedDelay": UInt(300)]))
            #expect(server.engine.settings.fixedDelayMilliseconds == 300)
            _ = try await call("POST", "__admin/settings", try Self.body(["fixedDelay": UInt(0)]))
            _ = try await call("POST", "__admin/scenarios/reset")
            _ = try await call("DELETE", "__admin/mappings/\(id.uuidString)")
            #expect(try await server.send("GET", "/test/path").status == 404)
            _ = try await call("DELETE", "__admin/requests")
            _ = try await call("POST", "__admin/reset")

            // shutdownServer: POST __admin/shutdown with no body; here the test stands in for pokestub serve.
            let stopped = Flag()
            server.engine.shutdown.setHandler { stopped.set() }
            _ = try await call("POST", "__admin/shutdown")
            try await eventually("the shutdown handler ran") { stopped.isSet }
        }
    }
}
