import Foundation
import Testing

@testable import PokestubCore

@Suite("The admin route table")
struct AdminRouteTableTests {
    /// The methods tried on every path.
    static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]

    private func admin() -> AdminAPI {
        AdminAPI(store: StubStore(root: nil), journal: RequestJournal(capacity: 10), info: ServerInfo(mode: .replay))
    }

    /// A path that `route`'s template matches, with a UUID for every parameter.
    private func samplePath(_ route: AdminRoute) -> String {
        let parts = route.segments.map { segment -> String in
            switch segment {
            case .literal(let text): return text
            case .parameter: return UUID().uuidString.lowercased()
            }
        }
        return AdminAPI.prefix + "/" + parts.joined(separator: "/")
    }

    /// The status and the first error's detail of the answer to `method` on `path`.
    private func answer(_ admin: AdminAPI, _ method: String, _ path: String) throws -> (Int, String?) {
        guard case .response(let response) = admin.reply(HTTPRequest(method: method, rawURL: path)) else {
            Issue.record("\(method) \(path) answered later")
            return (0, nil)
        }
        // The dashboard's page, script and style sheet are not JSON; every other answer is.
        guard response.headers["Content-Type"]?.hasPrefix("application/json") ?? false else {
            return (response.status, nil)
        }
        let body = try JSONValue.parse(response.body.data)
        guard case .array(let errors)? = body["errors"] else { return (response.status, nil) }
        return (response.status, errors.first?["detail"]?.stringValue)
    }

    @Test("every route answers its own method, and 405 for each method its path does not have")
    func everyRouteAnswersAndRefusesOtherMethods() throws {
        let admin = admin()
        let routes = AdminAPI.router.routes
        #expect(routes.count >= 30)
        for route in routes {
            let path = samplePath(route)
            let (status, detail) = try answer(admin, route.method, path)
            #expect(status != 405, "\(route.method) \(route.template)")
            #expect(
                detail?.hasPrefix("no admin operation") != true, "\(route.method) \(route.template): \(detail ?? "")")
            let allowed = Set(routes.filter { $0.template == route.template }.map(\.method))
            for other in AdminRouteTableTests.methods where !allowed.contains(other) {
                #expect(try answer(admin, other, path).0 == 405, "\(other) \(route.template)")
            }
        }
    }

    @Test(
        "paths no route has answer 404",
        arguments: [
            "/__admin", "/__admin/", "/__admin/nothing-here", "/__admin/mappings/a/b", "/__admin/recordings/pause",
            "/__admin/sessions/abc/mappings",
        ])
    func unknownPathsAnswer404(path: String) throws {
        let (status, detail) = try answer(admin(), "GET", path)
        #expect(status == 404)
        #expect(detail == "no admin operation at GET \(path)")
    }

    @Test("a literal segment wins over a parameter: requests/count is an operation, not an event id")
    func literalSegmentsWin() throws {
        let admin = admin()
        #expect(try answer(admin, "GET", "/__admin/requests/count").0 == 405)
        #expect(try answer(admin, "GET", "/__admin/mappings/reset").0 == 405)
        #expect(try answer(admin, "GET", "/__admin/requests/wait").0 == 405)
        #expect(try answer(admin, "GET", "/__admin/requests/not-a-uuid").0 == 400)
        #expect(try answer(admin, "PUT", "/__admin/scenarios/reset/state").1?.contains("\"reset\"") == true)
    }

    @Test("the router hands a template's parameters to the handler by name")
    func parametersAreExtracted() {
        let router = AdminRouter([
            .now("PUT", "scenarios/{name}/state") { _, _ in .json(.null) },
            .now("GET", "scenarios/reset") { _, _ in .json(.null) },
        ])
        guard
            case .found(let route, let parameters) = router.match(
                method: "PUT", segments: ["scenarios", "a b", "state"])
        else {
            Issue.record("no route for PUT scenarios/a b/state")
            return
        }
        #expect(route.template == "scenarios/{name}/state")
        #expect(parameters.map(\.name) == ["name"])
        #expect(parameters.map(\.value) == ["a b"])
        guard case .methodNotAllowed(let allowed) = router.match(method: "POST", segments: ["scenarios", "reset"])
        else {
            Issue.record("POST scenarios/reset is not a 405")
            return
        }
        #expect(allowed == ["GET"])
        guard case .notFound = router.match(method: "GET", segments: ["scenarios"]) else {
            Issue.record("GET scenarios is not a 404 in this table")
            return
        }
    }
}
