import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("XML, multipart and JSONPath filter matching over real sockets")
struct XMLAndMultipartMatchingTests {
    @Test("a SOAP stub with equalToXml and matchesXPath answers a matching body and near-misses another")
    func soap() async throws {
        try await LiveServer.with { server in
            let mapping = #"""
                {"request": {"method": "POST", "urlPath": "/soap",
                             "bodyPatterns": [
                               {"matchesXPath": {"expression": "//m:id/text()", "equalTo": "7"},
                                "xPathNamespaces": {"m": "urn:m"}},
                               {"equalToXml": "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><m:Get xmlns:m=\"urn:m\"><m:id>7</m:id><m:when>${xmlunit.ignore}</m:when></m:Get></s:Body></s:Envelope>",
                                "enablePlaceholders": true}]},
                 "response": {"status": 200, "body": "got it"}}
                """#
            #expect(try await server.admin("POST", "/mappings", json: mapping).0 == 201)
            let body = """
                <?xml version="1.0"?>
                <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
                  <soap:Body><Get xmlns="urn:m"><when>now</when><id>7</id></Get></soap:Body>
                </soap:Envelope>
                """
            let hit = try await server.send(
                "POST", "/soap", headers: ["Content-Type": "text/xml"], body: Data(body.utf8))
            #expect(hit.status == 200)
            #expect(hit.text == "got it")
            let miss = try await server.send(
                "POST", "/soap", headers: ["Content-Type": "text/xml"],
                body: Data(body.replacingOccurrences(of: "<id>7</id>", with: "<id>8</id>").utf8))
            #expect(miss.status == 404)
            #expect(
                miss.text.contains(#"body: expected matchesXPath "//m:id/text()" with equalTo "7""#), "\(miss.text)")
            #expect(miss.text.contains(#"(selected "8")"#), "\(miss.text)")
            #expect(miss.text.contains(#"/s:Body/m:Get/m:id: text "8", expected "7")"#), "\(miss.text)")
        }
    }

    @Test("a multipart upload matches per part, and a near miss lists the parts the request had")
    func multipart() async throws {
        try await LiveServer.with { server in
            let mapping = #"""
                {"request": {"method": "POST", "urlPath": "/upload",
                             "multipartPatterns": [
                               {"matchingType": "ANY",
                                "headers": {"Content-Disposition": {"contains": "name=\"info\""}},
                                "bodyPatterns": [{"matchesJsonPath": "$.team[?(@.name =~ /pika.*/i)]"}]},
                               {"matchingType": "ALL", "headers": {"Content-Disposition": {"contains": "form-data"}}}]},
                 "response": {"status": 201}}
                """#
            #expect(try await server.admin("POST", "/mappings", json: mapping).0 == 201)
            func upload(_ info: String) -> Data {
                let parts = [
                    "--b0undary\r\nContent-Disposition: form-data; name=\"info\"\r\nContent-Type: application/json\r\n\r\n"
                        + info + "\r\n",
                    "--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\n",
                ]
                return Data(parts.joined().utf8) + Data([0x89, 0x50, 0x4E, 0x47, 0x0D])
                    + Data("\r\n--b0undary--\r\n".utf8)
            }
            let headers = ["Content-Type": "multipart/form-data; boundary=b0undary"]
            let hit = try await server.send(
                "POST", "/upload", headers: headers, body: upload(#"{"team": [{"name": "Pikachu"}]}"#))
            #expect(hit.status == 201)
            let miss = try await server.send(
                "POST", "/upload", headers: headers, body: upload(#"{"team": [{"name": "Mew"}]}"#))
            #expect(miss.status == 404)
            #expect(
                miss.text.contains(#"multipart: expected ANY part with header Content-Disposition contains"#),
                "\(miss.text)")
            #expect(miss.text.contains(#"got "2 parts: \"info\", \"file\"""#), "\(miss.text)")
            #expect(miss.header("Pokestub-Closest-Stub")?.hasSuffix(" multipart") == true)
        }
    }

    @Test("XML parsing counts against the request's matching budget: a body too large for it answers 503")
    func budget() async throws {
        try await LiveServer.with { server in
            let mapping = #"""
                {"request": {"method": "POST", "urlPath": "/big", "bodyPatterns": [{"matchesXPath": "//never"}]},
                 "response": {"status": 200}}
                """#
            #expect(try await server.admin("POST", "/mappings", json: mapping).0 == 201)
            // Two steps per byte (XMLParser, then XMLDocument): five stubs reading a 2.1 MB body spend
            // MatchBudget.defaultSteps (20 million).
            for index in 0..<4 {
                let more = mapping.replacingOccurrences(of: "//never", with: "//never\(index)")
                #expect(try await server.admin("POST", "/mappings", json: more).0 == 201)
            }
            let body = Data(("<a>" + String(repeating: "x", count: 2_100_000) + "</a>").utf8)
            let answer = try await server.send("POST", "/big", body: body)
            #expect(answer.status == 503)
            #expect(answer.text.contains("matching budget spent"))
            #expect(answer.text.contains("matchesXPath"), "\(answer.text)")
            // An unmatched large body gets its near misses without comparing it as XML.
            let small = try await server.send(
                "POST", "/big", body: Data(("<a>" + String(repeating: "x", count: 100_000) + "</a>").utf8))
            #expect(small.status == 404)
            #expect(small.text.contains("is not compared for near misses"), "\(small.text)")
        }
    }
}
