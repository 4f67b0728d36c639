import Foundation
import PokestubClient
import Testing

// The examples in the documentation comments of Sources/PokestubJSON, run.

@Suite("PokestubJSON: symbol documentation")
struct PokestubJSONSymbolExamples {
    @Test("CanonicalJSON.pretty sorts keys and indents by two spaces")
    func canonicalJSON() {
        let text = CanonicalJSON.pretty(["name": "bulbasaur", "id": 1])
        // {
        //   "id": 1,
        //   "name": "bulbasaur"
        // }
        #expect(String(decoding: text, as: UTF8.self) == "{\n  \"id\": 1,\n  \"name\": \"bulbasaur\"\n}\n")
    }

    @Test("CanonicalJSON.compact sorts keys and writes no whitespace")
    func canonicalCompactJSON() {
        let text = CanonicalJSON.compact(["name": "bulbasaur", "id": 1])  // {"id":1,"name":"bulbasaur"}
        #expect(String(decoding: text, as: UTF8.self) == #"{"id":1,"name":"bulbasaur"}"#)
        // Keys by their Unicode scalars, on every platform: upper case before lower case, "10" before "9".
        let order = CanonicalJSON.compact(["b": 1, "B": 2, "9": 3, "10": 4, "é": 5, "a": [1.5, "x"]])
        #expect(String(decoding: order, as: UTF8.self) == #"{"10":4,"9":3,"B":2,"a":[1.5,"x"],"b":1,"é":5}"#)
    }

    @Test("JSONText finds a value's bytes and compacts them as written")
    func jsonText() {
        let text = Data(#"{"response": {"jsonBody": {"name": "fire", "id": 10, "weight": 1.0}}}"#.utf8)
        let body = JSONText.value(at: [.key("response"), .key("jsonBody")], in: text).map(JSONText.compacted)
        // {"name":"fire","id":10,"weight":1.0}
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == #"{"name":"fire","id":10,"weight":1.0}"#)
    }

    @Test("JSONText lists an object's members in source order, each value as written")
    func jsonTextMembers() {
        let members = JSONText.members(of: Data(#"{"b": 1.0, "a": [2]}"#.utf8))
        // [("b", "1.0"), ("a", "[2]")] (the values as Data)
        #expect(members?.map(\.name) == ["b", "a"])
        #expect(members?.map { String(decoding: $0.value, as: UTF8.self) } == ["1.0", "[2]"])
    }

    @Test("a parsed value is read by key")
    func parsing() throws {
        let page = try JSONValue.parse(#"{"count": 1302, "next": null}"#)
        let count = page["count"]?.intValue  // 1302
        #expect(count == 1302)
    }

    @Test("serializedString sorts keys")
    func serialization() {
        let value: JSONValue = ["name": "bulbasaur", "id": 1]
        let text = value.serializedString()  // {"id":1,"name":"bulbasaur"}
        #expect(text == #"{"id":1,"name":"bulbasaur"}"#)
    }

    @Test("literals and cases build the same values")
    func literals() {
        let body: JSONValue = [
            "count": 2,
            "next": nil,
            "results": [["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"]],
        ]
        let echo: JSONValue = .object(["limit": .string("20")])
        #expect(body["results"]?.arrayValue?.count == 1)
        #expect(echo == ["limit": "20"])
    }

    @Test("TextPosition finds the line a key path's value is written on")
    func textPosition() {
        let data = Data(
            """
            {"mappings": [
              {"request": {"url": "/a"}, "response": {"status": 200}},
              {"request": {"url": "/b"},
               "response": {"status": 999}}
            ]}
            """.utf8)
        let line = TextPosition.line(ofKeyPath: ["mappings", "1", "response", "status"], in: data)
        #expect(line == 4)
    }
}
