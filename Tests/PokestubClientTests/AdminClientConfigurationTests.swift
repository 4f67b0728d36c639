import Foundation
import PokestubClient
import Testing

@Suite("Finding the daemon")
struct AdminClientConfigurationTests {
    @Test("POKEMON_URL names the server, a trailing slash ignored")
    func fromEnvironment() throws {
        let admin = try PokestubAdminClient(environment: ["POKEMON_URL": "http://127.0.0.1:49152/"])
        #expect(admin.baseURL.absoluteString == "http://127.0.0.1:49152")
        #expect(admin.adminURL("/mappings").absoluteString == "http://127.0.0.1:49152/__admin/mappings")
    }

    @Test("without POKEMON_URL the client uses pokestub serve's default address")
    func defaultAddress() throws {
        #expect(try PokestubAdminClient(environment: [:]).baseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(
            try PokestubAdminClient(environment: ["POKEMON_URL": "  "]).baseURL.absoluteString
                == "http://127.0.0.1:8080")
    }

    @Test("a path prefix is kept, so admin requests go under it")
    func pathPrefix() throws {
        let admin = try PokestubAdminClient(environment: ["POKEMON_URL": "http://127.0.0.1:8080/__sessions/7"])
        #expect(
            admin.adminURL("/requests", query: [URLQueryItem(name: "limit", value: "2")]).absoluteString
                == "http://127.0.0.1:8080/__sessions/7/__admin/requests?limit=2")
    }

    @Test(
        "an invalid POKEMON_URL is an error naming the variable",
        arguments: ["ftp://x", "127.0.0.1:8080", "http://", "http://h/?a=1"])
    func invalid(value: String) {
        #expect {
            try PokestubAdminClient(environment: ["POKEMON_URL": value])
        } throws: { error in
            guard case .invalidConfiguration(let variable, let raw, _) = error as? PokestubClientError else {
                return false
            }
            return variable == "POKEMON_URL" && raw == value
                && (error as? PokestubClientError)?.description.hasPrefix("Invalid configuration: POKEMON_URL=") == true
        }
    }
}
