import Foundation
import PokestubJSON
import Testing

@Suite("JSONText: JSON as written")
struct JSONTextTests {
    private static let text = Data(
        #"""
        { "mappings" : [
            {"request": {"url": "/a"}, "response": {"jsonBody": "first"}},
            {"request": {"url": "/b, {[\"]}"}, "response" :
              { "status": 200, "jsonBody" : { "b" : [ 1.0 , 1e2 ], "a" : "x \" \u00e9 , ]" , "e": {} } }
            }
        ] }
        """#.utf8)

    @Test("finds a value by member names and element positions, skipping strings that hold brackets")
    func valueAtPath() throws {
        let path: [JSONText.PathComponent] = [.key("mappings"), .index(1), .key("response"), .key("jsonBody")]
        let value = try #require(JSONText.value(at: path, in: Self.text))
        #expect(
            String(decoding: value, as: UTF8.self) == #"{ "b" : [ 1.0 , 1e2 ], "a" : "x \" \u00e9 , ]" , "e": {} }"#)
        #expect(
            JSONText.value(at: [.key("mappings"), .index(0), .key("response"), .key("jsonBody")], in: Self.text)
                == Data(#""first""#.utf8))
        #expect(JSONText.value(at: [.key("mappings"), .index(2)], in: Self.text) == nil)
        #expect(JSONText.value(at: [.key("missing")], in: Self.text) == nil)
    }

    @Test("compacts outside strings only, and indents in source order")
    func compactAndPretty() throws {
        let value = Data(#"{ "b" : [ 1.0 , 1e2 ], "a" : "x \" \u00e9 , ]" , "e": {}, "l": [ ] }"#.utf8)
        #expect(
            String(decoding: JSONText.compacted(value), as: UTF8.self)
                == #"{"b":[1.0,1e2],"a":"x \" \u00e9 , ]","e":{},"l":[]}"#)
        #expect(
            String(decoding: JSONText.pretty(value, level: 1), as: UTF8.self)
                == "{\n    \"b\": [\n      1.0,\n      1e2\n    ],\n    \"a\": \"x \\\" \\u00e9 , ]\",\n"
                + "    \"e\": {},\n    \"l\": []\n  }")
        #expect(JSONText.compacted(JSONText.pretty(value)) == JSONText.compacted(value))
        // A string ending in an escaped backslash closes at the quote after it.
        #expect(
            String(decoding: JSONText.compacted(Data(#"{ "p" : "c:\\" , "q" : [ 1 ] }"#.utf8)), as: UTF8.self)
                == #"{"p":"c:\\","q":[1]}"#)
    }

    @Test("lists an object's members in source order, names decoded and values as written; nil for a non-object")
    func members() {
        let text = Data(#" { "b" : 1.0 , "\u0061": [1e2, "]"], "c": {"x": "}"}, "d": -0 } "#.utf8)
        let members = JSONText.members(of: text)
        #expect(members?.map(\.name) == ["b", "a", "c", "d"])
        #expect(
            members?.map { String(decoding: $0.value, as: UTF8.self) } == ["1.0", #"[1e2, "]"]"#, #"{"x": "}"}"#, "-0"])
        #expect(JSONText.members(of: Data("{}".utf8))?.isEmpty == true)
        #expect(JSONText.members(of: Data("[1]".utf8)) == nil)
    }
}
