import Foundation
import PokestubCore
import Testing

@Suite("JSON Schema subset: type, properties, required, items, anyOf and $ref, with JSONPath violations")
struct SchemaValidationTests {
    static let files: [(path: String, data: Data)] = [
        (
            "thing/$id/index.json",
            Data(
                #"""
                {"type": "object", "required": ["id", "kind"],
                 "properties": {"id": {"type": "integer"}, "sub-part": {"$ref": "/schema/v9/part.json"},
                   "parts": {"type": "array", "items": {"$ref": "../../part.json"}},
                   "owner": {"anyOf": [{"type": "null"}, {"$ref": "https://example.com/schema/part.json#"}]}}}
                """#.utf8)
        ),
        (
            "part.json",
            Data(#"{"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}"#.utf8)
        ),
        ("thing/index.json", Data(#"{"type": "array"}"#.utf8)),
        ("index.json", Data(#"{"type": "object"}"#.utf8)),
    ]

    static func set() throws -> SchemaSet {
        try SchemaSet(files: files, name: "test", apiPrefix: "/api/v9")
    }

    static func violations(_ json: String) throws -> [String] {
        let set = try set()
        let endpoint = try #require(set.endpoint(forPath: "/api/v9/thing/1/"))
        return set.violations(of: try JSONValue.parse(json), against: endpoint).violations.map(\.description)
    }

    @Test("paths find their endpoint with or without the trailing slash; $id is one segment")
    func endpoints() throws {
        let set = try SchemaValidationTests.set()
        #expect(set.endpoint(forPath: "/api/v9/thing/1/")?.name == "thing/$id")
        #expect(set.endpoint(forPath: "/api/v9/thing/pikachu")?.name == "thing/$id")
        #expect(set.endpoint(forPath: "/api/v9/thing/")?.name == "thing")
        #expect(set.endpoint(forPath: "/api/v9/")?.name == "(root)")
        #expect(set.endpoint(forPath: "/api/v9")?.name == "(root)")
        #expect(set.endpoint(forPath: "/api/v9/things/1/") == nil)
        #expect(set.endpoint(forPath: "/api/v9/thing/1/2/") == nil)
        #expect(set.endpoint(forPath: "/elsewhere/thing/1/") == nil)
        #expect(
            SchemaSet.pokeAPI.endpoint(forPath: "/api/v2/pokemon/pikachu/encounters")?.name == "pokemon/$id/encounters")
    }

    @Test("wrong types, missing members, bad array items, through absolute and relative $refs")
    func violationKinds() throws {
        let found = try SchemaValidationTests.violations(
            #"{"id": "1", "sub-part": {"name": 3}, "parts": [{"name": "a"}, {}, 7]}"#)
        #expect(
            found == [
                "$.kind: required member missing", "$.id: expected integer, got string",
                "$.parts[1].name: required member missing", "$.parts[2]: expected object, got integer",
                "$['sub-part'].name: expected string, got integer",
            ])
    }

    @Test("a number with a zero fraction is an integer (2020-12 §6.1.1); 2.5 is not")
    func integers() throws {
        #expect(try SchemaValidationTests.violations(#"{"id": 2.0, "kind": 1}"#).isEmpty)
        #expect(
            try SchemaValidationTests.violations(#"{"id": 2.5, "kind": 1}"#) == ["$.id: expected integer, got number"])
    }

    @Test("anyOf: a value fits a branch, or is reported through the closest one, or by every branch's types")
    func anyOf() throws {
        #expect(try SchemaValidationTests.violations(#"{"id": 1, "kind": 1, "owner": null}"#).isEmpty)
        #expect(
            try SchemaValidationTests.violations(#"{"id": 1, "kind": 1, "owner": {}}"#) == [
                "$.owner.name: required member missing"
            ])
        #expect(
            try SchemaValidationTests.violations(#"{"id": 1, "kind": 1, "owner": "me"}"#) == [
                "$.owner: expected null or object, got string"
            ])
    }

    @Test("past the limit violations are counted, not listed")
    func limit() throws {
        let set = try SchemaValidationTests.set()
        let endpoint = try #require(set.endpoint(forPath: "/api/v9/thing/1"))
        let parts = Array(repeating: "1", count: 30).joined(separator: ",")
        let value = try JSONValue.parse(#"{"id": 1, "kind": 1, "parts": [\#(parts)]}"#)
        let (violations, omitted) = set.violations(of: value, against: endpoint, limit: 20)
        #expect(violations.count == 20)
        #expect(omitted == 10)
    }

    @Test("a keyword outside the subset and a $ref to no file are refused when the set is made")
    func refusals() {
        #expect(throws: JSONSchemaError.self) {
            try SchemaSet(
                files: [("a/index.json", Data(#"{"type": "string", "enum": ["x"]}"#.utf8))], name: "t", apiPrefix: "/")
        }
        #expect(throws: JSONSchemaError.self) {
            try SchemaSet(
                files: [("a/index.json", Data(#"{"$ref": "/nowhere.json"}"#.utf8))], name: "t", apiPrefix: "/")
        }
    }

    @Test("every PokeAPI resource in the dump fits its schema")
    func pokeAPIDumpFits() throws {
        let dump = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/pokeapi/api/v2")
        for path in ["pokemon/25", "pokemon/25/encounters", "pokemon-species/772", "evolution-chain/1", "type/1", ""] {
            let data = try Data(contentsOf: dump.appendingPathComponent(path).appendingPathComponent("index.json"))
            let endpoint = try #require(SchemaSet.pokeAPI.endpoint(forPath: "/api/v2/\(path)"))
            let found = SchemaSet.pokeAPI.violations(of: try JSONValue.parse(data), against: endpoint)
            #expect(found.violations.isEmpty, "\(path): \(found.violations)")
        }
    }
}
