import Foundation
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

@Suite("Version")
struct VersionTests {
    @Test("/__admin/version and the health answer name release 0.2.0")
    func version() async throws {
        try await withStubServer { server async throws in
            let answer = try await HTTPFetch.send(server.url("/__admin/version"))
            #expect(answer.status == 200)
            #expect(try JSONValue(parsing: answer.body) == ["version": "0.2.0"])
            #expect(try await server.admin.health().version == "0.2.0")
        }
    }
}
