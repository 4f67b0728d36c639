import Foundation
import Testing

@testable import PokestubCore

@Suite("An upstream answer's schema check, once per distinct body")
struct ContractVerdictTests {
    private let request = HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon-color/1/")

    private func answer(_ text: String) -> UpstreamResponse {
        UpstreamResponse(
            status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]),
            body: Data(text.utf8))
    }

    @Test("the same bytes again get the same finding and are counted, without being parsed again")
    func sameBytesValidatedOnce() throws {
        let monitor = ContractMonitor(schemas: .pokeAPI, logger: .disabled)
        let drifted = answer(#"{"id": "1", "names": [], "pokemon_species": []}"#)
        let first = try #require(monitor.check(drifted, for: request))
        #expect(!first.violations.isEmpty)
        #expect(monitor.check(drifted, for: request) == first)
        #expect(monitor.check(drifted.body, status: 200, for: request) == first)
        #expect(monitor.bodiesValidated == 1)

        let fits = answer(#"{"id": 1, "name": "black", "names": [], "pokemon_species": []}"#)
        #expect(monitor.check(fits, for: request)?.violations == [])
        #expect(monitor.bodiesValidated == 2)

        let endpoint = try #require(monitor.json["endpoints"]?.arrayValue?.first)
        #expect(endpoint["answers"] == .integer(4))
        #expect(endpoint["answersNotFitting"] == .integer(3))
    }

    @Test("a body's digest follows the body")
    func digestFollowsTheBody() {
        var response = answer("[1]")
        let before = response.bodyDigest
        response.body = Data("[2]".utf8)
        #expect(response.bodyDigest != before)
        #expect(response.bodyDigest == answer("[2]").bodyDigest)
    }
}
