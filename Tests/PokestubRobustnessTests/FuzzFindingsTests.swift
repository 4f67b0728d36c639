import Foundation
import PokestubCore
import Testing

/// Faults the fuzz targets in Fuzz/ found, each reduced to the smallest input that shows it.
@Suite("Fuzz findings")
struct FuzzFindingsTests {
    /// FuzzMatcher, "a JSON document does not equal itself": the body `[58446744073419103232]` did not equal
    /// its own serialisation under `equalToJson`. Foundation reads integers beyond 64 bits as NSDecimalNumber,
    /// whose `doubleValue` was one ulp off on Linux, and the serialised `5.8446744073419104e+19` came back as
    /// 5.844674407341911e+19.
    @Test(
        "numbers beyond 64 bits read as the nearest double, so they survive a round trip",
        arguments: [
            "58446744073419103232", "18446744073709551616", "-9223372036854775809", "123456789012345678901234567890",
            "5.8446744073419104e+19", "100000000000000000000000",
        ])
    func bigNumbers(_ text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(value.numberValue == Double(text), "\(text) read as \(value)")
        let again = try JSONValue.parse(value.serialized())
        #expect(again.jsonEquals(value), "\(text): \(value) came back as \(again)")
        let pattern = StringValuePattern.equalToJson(
            .array([value]), ignoreArrayOrder: false, ignoreExtraElements: false)
        #expect(pattern.matches("[\(text)]"))
        #expect(pattern.matches(String(decoding: JSONValue.array([value]).serialized(), as: UTF8.self)))
    }

    @Test("a stub's jsonBody with a number beyond 64 bits serves what GET shows and PUT takes back")
    func bigNumberThroughTheAdminAPI() throws {
        let admin = AdminAPI(
            store: StubStore(root: nil), journal: RequestJournal(capacity: 10), info: ServerInfo(mode: .replay))
        let created = admin.handle(
            HTTPRequest(
                method: "POST", rawURL: "/__admin/mappings",
                body: Data(
                    #"{"request": {"urlPath": "/n"}, "response": {"jsonBody": {"n": 58446744073419103232}}}"#.utf8)))
        #expect(created.status == 201)
        let definition = try JSONValue.parse(created.body.data)
        let id = try #require(definition["id"]?.stringValue)
        let replaced = admin.handle(
            HTTPRequest(method: "PUT", rawURL: "/__admin/mappings/\(id)", body: definition.serialized()))
        #expect(replaced.status == 200)
        let shown = try JSONValue.parse(replaced.body.data)
        #expect(shown["response"]?["jsonBody"]?["n"]?.numberValue == Double("58446744073419103232"))
    }
}
