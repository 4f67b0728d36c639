import Foundation
import PokestubClient
import PokestubTestSupport
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
        let admin = try PokestubAdminClient(environment: ["POKEMON_URL": "http://127.0.0.1:8080/proxy/pokestub"])
        #expect(admin.sessionID == nil)
        #expect(
            admin.adminURL("/requests", query: [URLQueryItem(name: "limit", value: "2")]).absoluteString
                == "http://127.0.0.1:8080/proxy/pokestub/__admin/requests?limit=2")
    }

    @Test("a session's base URL makes a client for that session")
    func sessionBaseURL() throws {
        let admin = try PokestubAdminClient(environment: ["POKEMON_URL": "http://127.0.0.1:8080/__sessions/7f3a/"])
        #expect(admin.sessionID == "7f3a")
        #expect(admin.baseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(admin.adminPath == "/__admin/sessions/7f3a")
        #expect(
            admin.adminURL("/requests/wait").absoluteString
                == "http://127.0.0.1:8080/__admin/sessions/7f3a/requests/wait")
        let daemon = PokestubAdminClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
        #expect(daemon.scoped(toSession: "7f3a").adminURL("/mappings") == admin.adminURL("/mappings"))
    }

    @Test("POKESTUB_ADMIN_TOKEN gives the token; blank means none; it never shows in descriptions")
    func tokenFromEnvironment() throws {
        let admin = try PokestubAdminClient(environment: ["POKESTUB_ADMIN_TOKEN": "  s3cret-token  "])
        #expect(admin.hasToken)
        #expect(admin.description == "pokestub admin at http://127.0.0.1:8080/__admin (bearer token set)")
        var dumped = ""
        dump(admin, to: &dumped)
        #expect(!dumped.contains("s3cret"), "\(dumped)")
        #expect(try !PokestubAdminClient(environment: ["POKESTUB_ADMIN_TOKEN": " "]).hasToken)
        #expect(!PokestubAdminClient(baseURL: PokestubAdminClient.defaultBaseURL, token: "").hasToken)
    }

    @Test("a token with spaces is an error naming the variable, without showing the value")
    func invalidToken() {
        let error = #expect(throws: PokestubClientError.self) {
            try PokestubAdminClient(environment: ["POKESTUB_ADMIN_TOKEN": "two words"])
        }
        guard case .invalidConfiguration(let variable, let value, _)? = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(variable == "POKESTUB_ADMIN_TOKEN")
        #expect(!value.contains("words") && !(error?.description.contains("words") ?? true))
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

@Suite("Admin request timeout")
struct AdminClientTimeoutTests {
    @Test("the timeout is a Duration, 10 seconds unless given, and session clients keep it")
    func values() throws {
        #expect(PokestubAdminClient(baseURL: PokestubAdminClient.defaultBaseURL).timeout == .seconds(10))
        let admin = try PokestubAdminClient(environment: [:], timeout: .seconds(3))
        #expect(admin.timeout == .seconds(3))
        #expect(admin.scoped(toSession: "abc").timeout == .seconds(3))
    }

    @Test("a server that takes the connection and never answers fails the request after the timeout")
    func silentServer() async throws {
        let silent = try ListeningSocket()  // listens, never accepts: the request is sent and never answered
        defer { withExtendedLifetime(silent) {} }
        let baseURL = try #require(URL(string: "http://127.0.0.1:\(silent.port)"))
        let admin = PokestubAdminClient(baseURL: baseURL, timeout: .milliseconds(300))
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: PokestubClientError.self) { try await admin.health() }
        let elapsed = clock.now - started
        #expect(elapsed >= .milliseconds(300))
        // A deadline, not a speed: with the 10 s default the call would still be waiting.
        #expect(elapsed < .seconds(9), "the 10 s default would still be waiting")
    }
}
