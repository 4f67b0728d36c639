import Foundation
import PokestubTestSupport
import Testing

@Suite("pokestub check --schema checks stub bodies against PokeAPI's JSON Schemas")
struct CheckSchemaTests {
    /// `pokemon/25` from the PokeAPI dump with `stats[0].base_stat` written as a string, and the line it is on.
    private static func pikachuWithStringStat() throws -> (text: String, line: Int) {
        let url = URL(fileURLWithPath: Repository.pokeAPIDump + "/api/v2/pokemon/25/index.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let stats = try #require(text.range(of: "\"stats\": ["))
        let stat = try #require(text.range(of: "\"base_stat\": 35", range: stats.upperBound..<text.endIndex))
        let line = text[..<stat.lowerBound].filter { $0 == "\n" }.count + 1
        return (text.replacingCharacters(in: stat, with: "\"base_stat\": \"35\""), line)
    }

    @Test("each kind of violation, in a body file, an inline jsonBody, an inline body and a template, is path:line")
    func everyKindOfViolation() async throws {
        let pikachu = try CheckSchemaTests.pikachuWithStringStat()
        let root = try TemporaryDirectory.stubRoot(
            mappings: [
                "pikachu.json": #"""
                {
                  "request": {"method": "GET", "urlPath": "/api/v2/pokemon/25/"},
                  "response": {"status": 200, "bodyFileName": "pikachu.json"}
                }
                """#,
                "color.json": #"""
                {
                  "request": {"method": "GET", "urlPath": "/api/v2/pokemon-color/1/"},
                  "response": {
                    "status": 200,
                    "jsonBody": {
                      "id": "1",
                      "names": [
                        {"language": {"name": "en", "url": "https://pokeapi.co/api/v2/language/9/"}, "name": "Black"},
                        "Schwarz"
                      ],
                      "pokemon_species": []
                    }
                  }
                }
                """#,
                "inline-text.json": #"""
                {
                  "request": {"urlPath": "/api/v2/pokemon-color/2"},
                  "response": {
                    "status": 200,
                    "body": "{\"id\": 2, \"name\": \"blue\", \"names\": [], \"pokemon_species\": null}"
                  }
                }
                """#,
                "templated.json": #"""
                {
                  "request": {"method": "GET", "urlPathTemplate": "/api/v2/pokemon-color/{id}/"},
                  "response": {
                    "status": 200,
                    "transformers": ["response-template"],
                    "body": "{\"id\": {{request.pathSegments.[3]}}, \"name\": {{request.pathSegments.[3]}}, \"names\": [], \"pokemon_species\": []}"
                  }
                }
                """#,
                "typo.json": #"""
                {
                  "request": {"method": "GET", "urlPath": "/api/v2/pokemons/1/"},
                  "response": {"status": 200, "jsonBody": {}}
                }
                """#,
                "elsewhere.json": #"""
                {"request": {"urlPath": "/hello"}, "response": {"status": 200, "body": "hi"}}
                """#,
                "not-found.json": #"""
                {"request": {"urlPath": "/api/v2/pokemon/99999/"}, "response": {"status": 404, "body": "Not Found"}}
                """#,
            ],
            files: ["pikachu.json": pikachu.text])
        defer { root.removeFolder() }
        let check = try await PokestubProcess.run(["check", "--schema", root.path])
        let mappings = root.path + "/mappings/"
        let expected = [
            root.path + "/__files/pikachu.json:\(pikachu.line): response body $.stats[0].base_stat: "
                + "expected integer, got string (schema pokemon/$id)",
            mappings + "color.json:6: response body $.id: expected integer, got string (schema pokemon-color/$id)",
            mappings + "color.json:5: response body $.name: required member missing (schema pokemon-color/$id)",
            mappings + "color.json:9: response body $.names[1]: expected object, got string (schema pokemon-color/$id)",
            mappings + "inline-text.json:5: response body $.pokemon_species: expected array, got null "
                + "(schema pokemon-color/$id)",
            mappings + "templated.json:6: response body (rendered for GET /api/v2/pokemon-color/1/) $.name: "
                + "expected string, got integer (schema pokemon-color/$id)",
            mappings + "typo.json:2: request urlPath /api/v2/pokemons/1/: no PokeAPI v2 schema describes this path",
        ]
        let lines = Set(check.stdout.split(separator: "\n").map(String.init))
        for line in expected { #expect(lines.contains(line), "missing \(line) in\n\(check.stdout)") }
        #expect(lines.count == expected.count + 1, "\(check.stdout)")
        #expect(
            check.stdout.hasSuffix(
                "\(root.path): \(expected.count) problem(s), 4 checked against PokeAPI v2 "
                    + "schemas (4 bodies)\n"), "\(check.stdout)")
        #expect(check.status == 1)
        // Without --schema the same tree has no problem: the bodies are the stubs' business.
        let plain = try await PokestubProcess.run(["check", root.path])
        #expect(plain.status == 0, "\(plain.stdout)")
    }

    @Test("the shipped stubs fit PokeAPI's schemas")
    func shippedStubsFit() async throws {
        let check = try await PokestubProcess.run(["check", "--schema", Repository.stubs], timeout: .seconds(300))
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("checked against PokeAPI v2 schemas"), "\(check.stdout)")
    }

    @Test("--schemas reads another API's schemas from a folder, and refuses a keyword outside the subset")
    func otherSchemas() async throws {
        let schemas = try TemporaryDirectory()
        defer { schemas.removeFolder() }
        _ = try schemas.write(
            #"{"type": "object", "required": ["id"], "properties": {"id": {"$ref": "defs/id.json"}}}"#,
            to: "widget/$id/index.json")
        _ = try schemas.write(#"{"type": "string"}"#, to: "widget/$id/defs/id.json")
        let root = try TemporaryDirectory.stubRoot(mappings: [
            "w.json": #"{"request": {"urlPath": "/v1/widget/7"}, "response": {"jsonBody": {"id": 7}}}"#
        ])
        defer { root.removeFolder() }
        let check = try await PokestubProcess.run([
            "check", "--schema", "--schemas", schemas.path, "--api-prefix", "/v1/", root.path,
        ])
        #expect(check.status == 1)
        #expect(
            check.stdout.contains(
                root.path + "/mappings/w.json:1: response body $.id: expected string, got integer (schema widget/$id)"),
            "\(check.stdout)")
        _ = try schemas.write(#"{"type": "string", "minLength": 1}"#, to: "widget/$id/defs/id.json")
        let refused = try await PokestubProcess.run([
            "check", "--schema", "--schemas", schemas.path, "--api-prefix", "/v1/", root.path,
        ])
        #expect(refused.status == 78)
        #expect(
            refused.stderr.contains("widget/$id/defs/id.json: minLength: is not in the subset"), "\(refused.stderr)")
    }
}
