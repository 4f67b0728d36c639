import Foundation
import Testing

@testable import PokestubCore

@Suite("ServeEvent: the journal entry as the admin API shows it")
struct ServeEventTests {
    private static let receivedAt = Date(timeIntervalSince1970: 1_700_000_000.5)

    @Test("a matched request reads as WireMock's serve event")
    func matched() throws {
        let request = HTTPRequest(
            method: "GET", rawURL: "/api/v2/pokemon/?limit=20&q=mr+mime&limit=5",
            headers: HTTPHeaders([("Accept", "application/json"), ("X-Tag", "a"), ("X-Tag", "b")]),
            clientAddress: "127.0.0.1")
        let eventID = UUID()
        let stubID = UUID()
        let event = ServeEvent(
            id: eventID, receivedAt: Self.receivedAt, request: request,
            stub: ServeEvent.StubReference(id: stubID, name: "list"), responseStatus: 200,
            durationMilliseconds: 1.23456)
        let json = event.json(baseURL: "http://127.0.0.1:8080")
        #expect(json["id"] == .string(eventID.uuidString.lowercased()))
        #expect(json["wasMatched"] == .bool(true))
        #expect(json["response"] == .object(["status": .integer(200)]))
        #expect(
            json["stubMapping"]
                == .object(["id": .string(stubID.uuidString.lowercased()), "name": .string("list")]))
        #expect(json["timing"]?["totalTime"] == .double(1.235))
        let logged = try #require(json["request"])
        #expect(logged["url"] == .string("/api/v2/pokemon/?limit=20&q=mr+mime&limit=5"))
        #expect(logged["absoluteUrl"] == .string("http://127.0.0.1:8080/api/v2/pokemon/?limit=20&q=mr+mime&limit=5"))
        #expect(logged["method"] == .string("GET"))
        #expect(logged["clientIp"] == .string("127.0.0.1"))
        #expect(logged["headers"]?["Accept"] == .string("application/json"))
        #expect(logged["headers"]?["X-Tag"] == .array([.string("a"), .string("b")]))
        #expect(
            logged["queryParams"]?["limit"]
                == .object(["key": .string("limit"), "values": .array([.string("20"), .string("5")])]))
        #expect(logged["queryParams"]?["q"]?["values"] == .array([.string("mr mime")]))
        #expect(logged["body"] == .string(""))
        #expect(logged["bodyAsBase64"] == .string(""))
        #expect(logged["loggedDate"] == .integer(1_700_000_000_500))
        #expect(logged["loggedDateString"] == .string("2023-11-14T22:13:20.500Z"))
    }

    @Test("an unmatched request has no stub, and a binary body shows only as base64")
    func unmatchedBinary() {
        let request = HTTPRequest(method: "POST", rawURL: "/x", body: Data([0xFF, 0x00]))
        let event = ServeEvent(
            receivedAt: Self.receivedAt, request: request, stub: nil, responseStatus: 404, durationMilliseconds: 0)
        let json = event.json(baseURL: "http://127.0.0.1:1")
        #expect(json["wasMatched"] == .bool(false))
        #expect(json["stubMapping"] == .null)
        #expect(json["request"]?["body"] == .null)
        #expect(json["request"]?["bodyAsBase64"] == .string("/wA="))
        #expect(json["request"]?["clientIp"] == nil)
        #expect(!event.wasMatched)
    }
}
