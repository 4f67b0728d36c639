import PokestubTesting
import Testing

@Suite("StubRoute matching")
struct StubRouteTests {
    static func route(_ text: String) -> StubRoute {
        StubRoute(text) { _ in .text("") }
    }

    static func get(_ target: String, method: String = "GET") -> RouteRequest {
        RouteRequest(method: method, rawURL: target)
    }

    @Test("a method and path match with or without a trailing slash")
    func methodAndPath() {
        let route = Self.route("GET /api/v2/pokemon")
        #expect(route.method == "GET")
        #expect(route.matches(Self.get("/api/v2/pokemon")))
        #expect(route.matches(Self.get("/api/v2/pokemon/?limit=20")))
        #expect(!route.matches(Self.get("/api/v2/pokemon", method: "POST")))
        #expect(!route.matches(Self.get("/api/v2/pokemon/1/")))
        #expect(!route.matches(Self.get("/api/v2")))
    }

    @Test("a route without a method, or with * or ANY, takes every method")
    func anyMethod() {
        for text in ["/a", "* /a", "ANY /a"] {
            let route = Self.route(text)
            #expect(route.method == nil, "\(text)")
            #expect(route.matches(Self.get("/a", method: "DELETE")), "\(text)")
        }
    }

    @Test("* matches one segment, and everything that follows when it comes last")
    func wildcards() {
        let middle = Self.route("GET /api/*/pokemon")
        #expect(middle.matches(Self.get("/api/v2/pokemon")))
        #expect(!middle.matches(Self.get("/api/v2/x/pokemon")))
        let last = Self.route("GET /api/v2/pokemon/*")
        #expect(last.matches(Self.get("/api/v2/pokemon/1/")))
        #expect(last.matches(Self.get("/api/v2/pokemon/1/encounters")))
        #expect(!last.matches(Self.get("/api/v2/pokemon/")))
    }

    @Test("query items in the route are required; other parameters are allowed")
    func query() {
        let route = Self.route("GET /api/v2/pokemon?limit=20&offset")
        #expect(route.matches(Self.get("/api/v2/pokemon/?offset=0&limit=20&x=1")))
        #expect(!route.matches(Self.get("/api/v2/pokemon/?offset=0&limit=21")))
        #expect(!route.matches(Self.get("/api/v2/pokemon/?limit=20")))
        #expect(route.description == "GET /api/v2/pokemon?limit=20&offset")
    }

    @Test("paths compare percent-decoded")
    func decoded() {
        #expect(
            Self.route("GET /api/v2/pokemon-species/flabébé").matches(
                Self.get("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/")))
    }

    @Test(":name segments match one segment and hand over its decoded value")
    func namedParameters() {
        let route = Self.route("GET /api/v2/:resource/:id")
        #expect(route.parameters(of: Self.get("/api/v2/pokemon/25/")) == ["resource": "pokemon", "id": "25"])
        #expect(
            route.parameters(of: Self.get("/api/v2/pokemon-species/flab%C3%A9b%C3%A9")) == [
                "resource": "pokemon-species", "id": "flabébé",
            ])
        #expect(route.parameters(of: Self.get("/api/v2/pokemon")) == nil, "a :name segment needs a segment")
        #expect(route.parameters(of: Self.get("/api/v2/pokemon/25/encounters")) == nil)
        #expect(Self.route("GET /a/*").parameters(of: Self.get("/a/b/c")) == [:])
    }
}
