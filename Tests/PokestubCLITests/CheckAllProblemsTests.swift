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

    @Test("a stub serve would answer 500 is a warning: exit 0; --strict or the config's strict make it a problem")
    func warnings() async throws {
        let root = try TemporaryDirectory.stubRoot(
            mappings: [
                "a.json": #"{"request": {"urlPath": "/a"}, "response": {"body": "a"}}"#,
                "b.json":
                    "{\n  \"request\": {\"urlPath\": \"/b\"},\n  \"response\": {\"bodyFileName\": \"gone.json\"}\n}",
            ])
        defer { root.removeFolder() }
        let file = root.path + "/mappings/b.json"
        let check = try await PokestubProcess.run(["check", root.path])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(
            check.stdout.contains(file + ":3: warning: response.bodyFileName: cannot read body file __files/gone.json"))
        #expect(check.stdout.contains("2 stubs in 2 files, no problems, 1 warning(s)"), "\(check.stdout)")
        let strict = try await PokestubProcess.run(["check", "--strict", root.path])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains(file + ":3: response.bodyFileName: cannot read body file"), "\(strict.stdout)")
        #expect(strict.stdout.hasSuffix(root.path + ": 1 problem(s)\n"), "\(strict.stdout)")
        let config = try root.write(#"{"strict": true}"#, to: "config.json")
        let configured = try await PokestubProcess.run(["check", "--config", config.path, root.path])
        #expect(configured.status == 1, "\(configured.stdout)")
    }
}
