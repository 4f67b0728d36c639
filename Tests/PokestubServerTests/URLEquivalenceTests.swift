import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// Which spellings of a URL, query value or body name the same thing, over raw sockets (the request target is
/// sent byte for byte): RFC 3986 §6.2.2 for URLs, Unicode scalars (never canonical equivalence) for text.
@Suite("URL equivalence per RFC 3986 §6.2.2 and text compared by Unicode scalars")
struct URLEquivalenceTests {
    /// A decomposed é: `e` followed by U+0301 COMBINING ACUTE ACCENT.
    private static let decomposed = "e\u{301}"

    /// Sends `method target` (and a body) on a connection of its own and returns the whole answer as text.
    private static func send(
        _ target: String, method: String = "GET", body: String = "", port: Int
    ) async throws
        -> String
    {
        let connection = try RawConnection(port: port)
        let bytes = Array(body.utf8)
        try connection.send(
            "\(method) \(target) HTTP/1.1\r\nHost: a\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n")
        if !bytes.isEmpty { try connection.send(bytes) }
        return String(decoding: await connection.receive(), as: UTF8.self)
    }

    private static func status(_ answer: String) -> Int? {
        Int(answer.split(separator: " ").dropFirst().first ?? "")
    }

    private static func withStubs(_ stubs: [String], _ body: (Int) async throws -> Void) async throws {
        try await LiveServer.with { server in
            for stub in stubs { #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201) }
            try await body(server.server.port)
        }
    }

    @Test("a reserved character is not its encoded form: %26 is not &, %2F is not /")
    func reservedCharacters() async throws {
        let stubs = [
            #"{"request": {"urlPath": "/item/great%20ball%26more"}, "response": {"body": "encoded"}}"#,
            #"{"request": {"urlPath": "/folder/a%2Fb"}, "response": {"body": "one segment"}}"#,
        ]
        try await Self.withStubs(stubs) { port in
            #expect(Self.status(try await Self.send("/item/great%20ball%26more", port: port)) == 200)
            #expect(Self.status(try await Self.send("/item/great%20ball%26More", port: port)) == 404)
            let miss = try await Self.send("/item/great%20ball&more", port: port)
            #expect(Self.status(miss) == 404)
            #expect(miss.contains(#"urlPath: expected "/item/great%20ball%26more", got "/item/great%20ball&more""#))
            #expect(Self.status(try await Self.send("/folder/a%2fb", port: port)) == 200, "hex digits in any case")
            #expect(Self.status(try await Self.send("/folder/a/b", port: port)) == 404)
        }
    }

    @Test("an encoded unreserved character is the character, and hex digits compare in any case")
    func unreservedCharacters() async throws {
        let stubs = [
            #"{"request": {"urlPath": "/u/%7Efoo%2dbar.%41"}, "response": {"body": "tilde"}}"#,
            #"{"request": {"url": "/q?name=%c3%a9%5F"}, "response": {"body": "query"}}"#,
            #"{"request": {"urlPathTemplate": "/t/%7Ex/{id}"}, "response": {"body": "template"}}"#,
        ]
        try await Self.withStubs(stubs) { port in
            for target in ["/u/~foo-bar.A", "/u/%7efoo%2Dbar%2EA", "/u/%7Efoo%2dbar.%41", "/q?name=%C3%A9_", "/t/~x/7"]
            {
                let answer = try await Self.send(target, port: port)
                #expect(Self.status(answer) == 200, "\(target): \(answer)")
            }
        }
    }

    @Test("UTF-8 text in a stub is its percent-encoding; a decomposed é is not a precomposed one")
    func unicodeInPaths() async throws {
        let stubs = [#"{"request": {"urlPath": "/api/v2/pokemon-species/flabébé/"}, "response": {"body": "x"}}"#]
        try await Self.withStubs(stubs) { port in
            let precomposed = "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"
            #expect(Self.status(try await Self.send(precomposed, port: port)) == 200)
            #expect(Self.status(try await Self.send(precomposed.lowercased(), port: port)) == 200)
            let miss = try await Self.send("/api/v2/pokemon-species/flabe%CC%81be%CC%81/", port: port)
            #expect(Self.status(miss) == 404)
            #expect(
                miss.contains(
                    #"urlPath: expected "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/", "#
                        + #"got "/api/v2/pokemon-species/flabe%CC%81be%CC%81/""#), "\(miss)")
        }
    }

    @Test("query values, equalTo, contains, equalToJson and body text compare Unicode scalars")
    func textByScalars() async throws {
        let stubs = [
            #"{"request": {"urlPath": "/q", "queryParameters": {"name": {"equalTo": "flabébé"}}}, "response": {}}"#,
            #"{"request": {"method": "POST", "urlPath": "/c", "bodyPatterns": [{"contains": "bébé"}]}, "response": {}}"#,
            #"{"request": {"method": "POST", "urlPath": "/j", "bodyPatterns": [{"equalToJson": {"name": "flabébé"}}]}, "response": {}}"#,
        ]
        try await Self.withStubs(stubs) { port in
            #expect(Self.status(try await Self.send("/q?name=flab%C3%A9b%C3%A9", port: port)) == 200)
            let miss = try await Self.send("/q?name=flabe%CC%81be%CC%81", port: port)
            #expect(Self.status(miss) == 404)
            #expect(
                miss.contains(
                    #"(Unicode scalars differ: expected equalTo "flab\u{E9}b\u{E9}", got "flabe\u{301}be\u{301}")"#),
                "\(miss)")

            let decomposedName = "flab\(Self.decomposed)b\(Self.decomposed)"
            #expect(Self.status(try await Self.send("/c", method: "POST", body: "un flabébé", port: port)) == 200)
            #expect(
                Self.status(try await Self.send("/c", method: "POST", body: "un \(decomposedName)", port: port)) == 404)
            #expect(
                Self.status(try await Self.send("/j", method: "POST", body: #"{"name": "flabébé"}"#, port: port)) == 200
            )
            #expect(
                Self.status(
                    try await Self.send("/j", method: "POST", body: #"{"name": "\#(decomposedName)"}"#, port: port))
                    == 404)
        }
    }
}
