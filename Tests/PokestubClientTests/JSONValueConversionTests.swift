import Foundation
import PokestubClient
import Testing

@Suite("JSONValue in the client")
struct JSONValueConversionTests {
    @Test("literals build the JSON they spell, keeping integers apart from fractions")
    func literals() {
        let value: JSONValue = [
            "count": 20, "ratio": 0.5, "name": "bulbasaur", "next": nil, "ok": true, "list": [1, "a"],
        ]
        #expect(
            value.serializedString()
                == #"{"count":20,"list":[1,"a"],"name":"bulbasaur","next":null,"ok":true,"ratio":0.5}"#)
    }

    @Test("parsing keeps booleans, integers and doubles apart")
    func parsingKeepsKinds() throws {
        let value = try JSONValue(parsing: #"{"a": true, "b": 20, "c": 2.5, "d": "x", "e": [null]}"#)
        #expect(value["a"] == .bool(true))
        #expect(value["b"] == .integer(20))
        #expect(value["c"] == .double(2.5))
        #expect(value["d"]?.stringValue == "x")
        #expect(value["e"]?[0] == .null)
    }

    @Test("serializing does not escape slashes, so URLs stay readable")
    func slashesStayReadable() {
        let value: JSONValue = ["url": "https://pokeapi.co/api/v2/pokemon/1/"]
        #expect(value.serializedString() == #"{"url":"https://pokeapi.co/api/v2/pokemon/1/"}"#)
    }

    @Test("invalid JSON text is an error naming what was read")
    func invalidText() {
        #expect {
            try JSONValue(parsing: "{not json", what: "a stub mapping")
        } throws: { error in
            guard case .invalidJSON(let what, _) = error as? PokestubClientError else { return false }
            return what == "a stub mapping"
        }
    }

    @Test("an Encodable value converts with the encoder's key strategy")
    func encodable() throws {
        struct Entry: Encodable {
            var baseExperience: Int
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let value = try JSONValue(encoding: Entry(baseExperience: 64), encoder: encoder)
        #expect(value == ["base_experience": 64])
    }
}
