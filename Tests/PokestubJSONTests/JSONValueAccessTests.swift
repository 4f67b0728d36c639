import Foundation
import PokestubJSON
import Testing

@Suite("JSONValue access and coding")
struct JSONValueAccessTests {
    @Test("accessors give the value of their own kind and nil for any other")
    func accessors() throws {
        let value = try JSONValue.parse(#"{"list": [true, 2, 2.5, "x", null, {}], "n": 7}"#)
        let list = try #require(value["list"]?.arrayValue)
        #expect(list.count == 6)
        #expect(value["list"]?[0]?.boolValue == true)
        #expect(value["list"]?[1]?.doubleValue == 2)
        #expect(value["list"]?[2]?.numberValue == 2.5)
        #expect(value["list"]?[3]?.stringValue == "x")
        #expect(value["list"]?[4]?.isNull == true)
        #expect(value["list"]?[5]?.objectValue == [:])
        #expect(value["list"]?[6] == nil)
        #expect(value["list"]?[-1] == nil)
        #expect(value["n"]?[0] == nil)
        #expect(value["n"]?.boolValue == nil)
        #expect(value["n"]?.arrayValue == nil)
        #expect(value.objectValue?.keys.sorted() == ["list", "n"])
    }

    @Test("objects and arrays are containers, scalars are not")
    func containers() {
        #expect(JSONValue.object([:]).isContainer)
        #expect(JSONValue.array([]).isContainer)
        #expect(!JSONValue.string("{}").isContainer)
        #expect(!JSONValue.null.isContainer)
    }

    @Test("a number JSON cannot hold is written as null, and the rest of the document stays")
    func nonFiniteNumbers() {
        let value: JSONValue = ["a": .double(.nan), "b": [.double(.infinity), 1]]
        #expect(value.serializedString() == #"{"a":null,"b":[null,1]}"#)
        #expect(String(decoding: CanonicalJSON.pretty(.double(-.infinity)), as: UTF8.self) == "null\n")
    }

    @Test("Codable round-trips every kind through JSONEncoder and JSONDecoder")
    func codable() throws {
        struct Envelope: Codable, Equatable {
            var metadata: JSONValue
        }
        let envelope = Envelope(metadata: ["a": [true, nil, 20, 0.5, "x"], "b": [:]])
        let data = try JSONEncoder().encode(envelope)
        #expect(try JSONDecoder().decode(Envelope.self, from: data) == envelope)
        #expect(try JSONValue.parse(data) == ["metadata": envelope.metadata])
    }

    @Test("canonical pretty text indents by two, sorts keys and ends with a newline")
    func canonical() {
        let value: JSONValue = ["b": [1, "/x"], "a": [:], "c": []]
        let text = String(decoding: CanonicalJSON.pretty(value), as: UTF8.self)
        #expect(text == "{\n  \"a\": {},\n  \"b\": [\n    1,\n    \"/x\"\n  ],\n  \"c\": []\n}\n")
    }
}
