import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// A mapping written by `POST /__admin/mappings/save`, or by `"persistent": true`, keeps what the admin client
/// posted: member order, number spelling and escapes, so the file serves the bytes the runtime stub served.
@Suite("Saved and persistent mapping files keep the posted member order and number spelling")
struct SavedMappingOrderTests {
    /// Members out of alphabetical order, a `1.0` and an integer past `Int64` in the body; `name` last.
    private static func mapping(id: String, path: String, persistent: Bool = false) -> String {
        #"""
        {"id": "\#(id)", "request": {"urlPath": "\#(path)", "method": "GET"},
         "response": {"status": 200, "jsonBody": {"zeta": 1.0, "alpha": 12345678901234567890,
           "mid": {"b": [2.50, -0.0, 1e2], "a": "caf\u00e9"}}},
         "name": "Order \#(path)"\#(persistent ? #", "persistent": true"# : "")}
        """#
    }

    /// What the body is served as: the posted `jsonBody` text, compacted.
    private static let served =
        #"{"zeta":1.0,"alpha":12345678901234567890,"mid":{"b":[2.50,-0.0,1e2],"a":"caf\u00e9"}}"#

    /// The names of the object's members in the file, in order.
    private static func memberNames(_ data: Data) -> [String] {
        JSONText.members(of: data)?.map(\.name) ?? []
    }

    @Test("mappings/save writes the posted jsonBody as written, members in posted order, and serves the same bytes")
    func saveKeepsOrder() async throws {
        let root = try TemporaryDirectory.stubRoot()
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path) { server in
            let id = "0d0e0000-0000-4000-8000-000000000001"
            #expect(try await server.admin("POST", "/mappings", json: Self.mapping(id: id, path: "/order")).0 == 201)
            #expect(try await server.send("GET", "/order").text == Self.served)
            let (_, listed) = try await server.admin("GET", "/mappings/\(id)")
            #expect(listed["name"] == .string("Order /order"))

            let (status, answer) = try await server.admin("POST", "/mappings/save")
            #expect(status == 200, "\(answer)")
            let file = try #require(answer["saved"]?.arrayValue?.first?.stringValue)
            #expect(file == "mappings/order-order-\(id).json")
            let data = try root.data(file)
            #expect(Self.memberNames(data) == ["id", "request", "response", "name", "uuid", "persistent"])
            let request = try #require(JSONText.value(at: [.key("request")], in: data))
            #expect(Self.memberNames(request) == ["urlPath", "method"])
            let jsonBody = try #require(JSONText.value(at: [.key("response"), .key("jsonBody")], in: data))
            #expect(String(decoding: JSONText.compacted(jsonBody), as: UTF8.self) == Self.served)
            #expect(try JSONValue.parse(data)["persistent"] == .bool(true))
            #expect(try JSONValue.parse(data)["uuid"] == .string(id))

            // Served from the file now (read back after saving), and again after a reset to the files.
            #expect(server.engine.store.runtimeStubs.isEmpty)
            #expect(try await server.send("GET", "/order").text == Self.served)
            #expect(server.engine.store.resetToFiles().succeeded)
            #expect(try await server.send("GET", "/order").text == Self.served)
        }
    }

    @Test("a persistent stub's file keeps the posted member order and number spelling, and serves the same bytes")
    func persistentKeepsOrder() async throws {
        let root = try TemporaryDirectory.stubRoot()
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path) { server in
            let id = "0d0e0000-0000-4000-8000-000000000002"
            let posted = Self.mapping(id: id, path: "/kept", persistent: true)
            let response = try await server.send("POST", "/__admin/mappings", body: Data(posted.utf8))
            #expect(response.status == 201, "\(response.text)")
            let file = try #require(response.header("Pokestub-Mapping-File"))
            let data = try root.data(file)
            #expect(Self.memberNames(data) == ["id", "request", "response", "name", "persistent"])
            let jsonBody = try #require(JSONText.value(at: [.key("response"), .key("jsonBody")], in: data))
            #expect(String(decoding: JSONText.compacted(jsonBody), as: UTF8.self) == Self.served)
            #expect(try await server.send("GET", "/kept").text == Self.served)
            #expect(server.engine.store.resetToFiles().succeeded)
            #expect(try await server.send("GET", "/kept").text == Self.served)
        }
    }
}
