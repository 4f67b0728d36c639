import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// A `jsonBody` is served as its mapping writes it, compacted: member order, number spelling and string
/// escapes byte for byte.
@Suite("jsonBody is served as written")
struct JSONBodyAsWrittenTests {
    /// A body a re-serialisation would change everywhere: key order, `1.0`, `1e2`, a 20-digit integer, a
    /// number in exponent form, escapes, and layout.
    private static let written = #"""
        {
            "name": "fire", "id": 10,
            "one": 1.0, "hundred": 1e2, "big": 12345678901234567890, "small": 1.7358010261155856e-5,
            "escaped": "\u00e9 \"q\" a\/b", "raw": "é",
            "nested": {"z": 1, "a": [3, 2, 1], "empty": {}, "none": []}
        }
        """#
    private static let served = Data(
        (#"{"name":"fire","id":10,"one":1.0,"hundred":1e2,"big":12345678901234567890,"small":1.7358010261155856e-5,"#
            + #""escaped":"\u00e9 \"q\" a\/b","raw":"é","nested":{"z":1,"a":[3,2,1],"empty":{},"none":[]}}"#).utf8)

    @Test("from a mapping file, a list file and the admin API")
    func asWritten() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        _ = try folder.write(
            #"{"request": {"url": "/file"}, "response": {"status": 200, "jsonBody": \#(Self.written)}}"#,
            to: "mappings/file.json")
        _ = try folder.write(
            #"""
            {"mappings": [
              {"request": {"url": "/first"}, "response": {"jsonBody": {"b": 2, "a": 1}}},
              {"request": {"url": "/second"}, "response": {"headers": {"X-A": "1"}, "jsonBody": \#(Self.written)}}
            ]}
            """#, to: "mappings/list.json")
        try await LiveServer.with(stubRoot: folder.path) { server in
            let admin = #"{"request": {"url": "/admin"}, "response": {"jsonBody": \#(Self.written)}}"#
            #expect(try await server.admin("POST", "/mappings", json: admin).0 == 201)
            for target in ["/file", "/second", "/admin"] {
                let response = try await server.send("GET", target)
                #expect(response.status == 200)
                #expect(response.body == Self.served, "\(target): \(response.text)")
                #expect(response.header("Content-Type") == "application/json")
            }
            #expect(try await server.send("GET", "/first").text == #"{"b":2,"a":1}"#)
        }
    }

    /// The decision of Docs/Stubs.md ("Where pokestub differs from WireMock 2.35"): WireMock 2.35 sends no
    /// Content-Type with a `jsonBody`; pokestub sends `application/json` unless the stub sets its own.
    @Test("a jsonBody answer carries application/json, or the stub's own Content-Type alone")
    func contentType() async throws {
        try await LiveServer.with { server in
            let plain = #"{"request": {"url": "/plain"}, "response": {"jsonBody": {"a": 1}}}"#
            let own =
                #"{"request": {"url": "/own"}, "response": {"headers": {"content-type": "application/vnd.api+json"}, "jsonBody": {"a": 1}}}"#
            #expect(try await server.admin("POST", "/mappings", json: plain).0 == 201)
            #expect(try await server.admin("POST", "/mappings", json: own).0 == 201)
            let plainAnswer = try await server.send("GET", "/plain")
            #expect(plainAnswer.header("Content-Type") == "application/json")
            let ownAnswer = try await server.send("GET", "/own")
            #expect(ownAnswer.header("Content-Type") == "application/vnd.api+json")
        }
    }
}
