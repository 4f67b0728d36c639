import Foundation
import PokestubTestSupport
import Testing

@Suite("pokestub check lists every problem of a file and names WireMock features pokestub lacks")
struct CheckAllProblemsTests {
    @Test("four problems in one mapping are four path:line lines, and the exit status is 1")
    func everyProblem() async throws {
        let root = try TemporaryDirectory.stubRoot(
            mappings: [
                "a.json": #"""
                {
                  "request": {
                    "urlPath": "/a",
                    "cookies": {"s": {"binaryEqualTo": "AAE="}},
                    "host": {"equalTo": "x"}
                  },
                  "response": {"status": 700, "delayDistribution": {"type": "uniform"}}
                }
                """#
            ])
        defer { root.removeFolder() }
        let check = try await PokestubProcess.run(["check", root.path])
        #expect(check.status == 1)
        let lines = check.stdout.split(separator: "\n").map(String.init)
        let file = root.path + "/mappings/a.json"
        #expect(lines.filter { $0.hasPrefix(file + ":") }.count == 4, "\(check.stdout)")
        #expect(
            lines.contains {
                $0.hasPrefix(file + ":4: request.cookies.s.binaryEqualTo: WireMock feature not supported by pokestub")
            })
        #expect(lines.contains { $0.hasPrefix(file + ":5: request.host: WireMock feature not supported by pokestub") })
        #expect(lines.contains(file + ":7: response.status: must be between 100 and 599, not 700"))
        #expect(
            lines.contains { $0.hasPrefix(file + ":7: response.delayDistribution: WireMock feature not supported") })
        #expect(lines.last == root.path + ": 4 problem(s)")
    }
}
