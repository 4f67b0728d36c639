import PokestubClient
import Testing

@Suite("PokestubJSON catalog")
struct PokestubJSONExamples {
    @Test("a value written with literals parses back from its text, and integers stay integers")
    func literalsAndText() throws {
        let page: JSONValue = ["count": 1302, "next": "https://pokeapi.co/api/v2/pokemon/?offset=20", "previous": nil]
        let parsed = try JSONValue.parse(page.serializedString())
        #expect(parsed == page)
        #expect(parsed["count"]?.intValue == 1302)
        #expect(JSONValue.object(["limit": .integer(20)]).serializedString() == #"{"limit":20}"#)
    }
}
