import Foundation
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// One JSON type for stubs and closure routes: the same literals, cases and `Encodable` bodies on both, as a
/// client reads them over a socket.
@Suite("JSON bodies on stubs and routes")
struct JSONBodiesTests {
    struct Trainer: Codable, Equatable {
        var trainerName: String
        var badgeCount: Int
    }

    static let snakeCase: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    @Test("a literal and the cases with .number read the same on the builder and on a route")
    func literalsAndCases() async throws {
        let count = 0
        let stubs = [
            StubBuilder.get("/stub/literal").willReturn(.json(["count": 0, "next": nil])),
            StubBuilder.get("/stub/cases").willReturn(.json(.object(["count": .number(count), "next": .null]))),
        ]
        let routes = [
            StubRoute("GET /route/literal") { _ in .json(["count": 0, "next": nil]) },
            StubRoute("GET /route/cases") { _ in .json(.object(["count": .number(count), "next": .null])) },
        ]
        try await withStubServer(mappings: stubs, routes: routes) { server in
            for path in ["/stub/literal", "/stub/cases", "/route/literal", "/route/cases"] {
                let answer = try await HTTPFetch.send(server.url(path))
                #expect(answer.status == 200, "\(path)")
                #expect(answer.headers["content-type"] == "application/json", "\(path)")
                #expect(try JSONValue(parsing: answer.body) == ["count": 0, "next": nil], "\(path)")
            }
        }
    }

    @Test(".number keeps whole numbers whole and fractions as doubles")
    func numbers() {
        #expect(JSONValue.number(20) == .integer(20))
        #expect(JSONValue.number(0.5) == .double(0.5))
        #expect(JSONValue.number(20).serializedString() == "20")
    }

    @Test("an Encodable value is the body of a stub and of a route, through the given encoder")
    func encodableBodies() async throws {
        let misty = Trainer(trainerName: "Misty", badgeCount: 2)
        let stub = try StubBuilder.get("/stub/trainer").willReturn(.json(encoding: misty, encoder: Self.snakeCase))
        let route = StubRoute("GET /route/trainer") { _ in
            try .json(encoding: misty, status: 201, encoder: Self.snakeCase)
        }
        try await withStubServer(mappings: [stub], routes: [route]) { server in
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let fromStub = try await HTTPFetch.send(server.url("/stub/trainer"))
            #expect(try JSONValue(parsing: fromStub.body) == ["trainer_name": "Misty", "badge_count": 2])
            #expect(try decoder.decode(Trainer.self, from: fromStub.body) == misty)
            let fromRoute = try await HTTPFetch.send(server.url("/route/trainer"))
            #expect(fromRoute.status == 201)
            #expect(fromRoute.headers["content-type"] == "application/json")
            #expect(try decoder.decode(Trainer.self, from: fromRoute.body) == misty)
        }
    }

    @Test("a value that cannot be encoded fails the route with a 500 naming its type")
    func unencodable() async throws {
        let route = StubRoute("GET /nan") { _ in try .json(encoding: ["ratio": Double.nan]) }
        try await withStubServer(routes: [route]) { server in
            let answer = try await HTTPFetch.send(server.url("/nan"))
            #expect(answer.status == 500)
            #expect(answer.text.contains("Dictionary<String, Double>"), "\(answer.text)")
        }
    }
}
