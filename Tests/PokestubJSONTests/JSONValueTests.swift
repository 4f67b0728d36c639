import Foundation
import Testing

@testable import PokestubJSON

@Suite("JSONValue")
struct JSONValueTests {
    @Test(
        "integers stay integers, fractions and exponents are doubles",
        arguments: [
            ("1", JSONValue.integer(1)), ("-5", .integer(-5)), ("0", .integer(0)),
            ("9223372036854775807", .integer(Int64.max)), ("1.0", .double(1)), ("1.5", .double(1.5)),
            ("1e2", .double(100)), ("18446744073709551615", .double(0x1p64)),
        ])
    func numbers(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test("a string literal with interpolations is a string value, in a dictionary literal too")
    func interpolation() {
        let id = 25
        let name: JSONValue = "pokemon \(id)"
        #expect(name == .string("pokemon 25"))
        let body: JSONValue = ["id": .integer(Int64(id)), "name": "pokemon \(id)", "url": "/api/v2/pokemon/\(id)/"]
        #expect(body.serializedString() == #"{"id":25,"name":"pokemon 25","url":"/api/v2/pokemon/25/"}"#)
    }

    @Test("booleans are not numbers and numbers are not booleans")
    func booleans() throws {
        let value = try JSONValue.parse(#"{"flags": [true, false, 1, 0]}"#)
        #expect(value["flags"] == .array([.bool(true), .bool(false), .integer(1), .integer(0)]))
        #expect(JSONValue.bool(true).numberValue == nil)
        #expect(JSONValue.bool(true).typeName == "boolean")
        #expect(!JSONValue.bool(true).jsonEquals(.integer(1)))
        #expect(JSONValue.integer(1).jsonEquals(.double(1.0)))
        #expect(JSONValue.integer(3).intValue == 3)
        #expect(JSONValue.double(3.5).intValue == nil)
    }

    @Test("serialises compactly with sorted keys and unescaped slashes, keeping integer-ness")
    func serialize() throws {
        let value = try JSONValue.parse(#"{"b": [1, 2.5, true, null], "a": "/api/v2/", "c": {"é": "ü"}}"#)
        #expect(value.serializedString() == #"{"a":"/api/v2/","b":[1,2.5,true,null],"c":{"é":"ü"}}"#)
        #expect(try JSONValue.parse(value.serializedString(pretty: true)) == value)
        #expect(JSONValue.integer(1).serializedString() == "1")
        #expect(JSONValue.bool(false).serializedString() == "false")
    }

    @Test("strings keep escapes and characters outside the BMP")
    func strings() throws {
        #expect(try JSONValue.parse(#""a\"b\\c\n\u00e9\ud83d\ude00""#) == .string("a\"b\\c\né😀"))
    }

    @Test(
        "a syntax error carries its line and column",
        arguments: [
            ("{\n  \"a\": 1,\n  \"b\": x\n}", 3, 8),
            ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3),
            ("{\"é\": \"ééé\",\n\"b\": ?}", 2, 6),
            ("01", 1, 2),
        ])
    func syntaxErrorPosition(text: String, line: Int, column: Int) {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
        #expect(error?.line == line)
        #expect(error?.column == column)
        #expect(error?.message.hasPrefix("invalid JSON") == true)
    }

    @Test(
        "every syntax error carries a line, including unescaped control characters and the end of the text",
        arguments: [
            ("{\n  \"a\": \"x\ny\"\n}", 2),
            ("{\n  \"a\": [1,\n", 3),
            ("{\n  \"a\": [1,\n  2", 3),
            ("", 1),
            ("  \n\n", 3),
            ("nul", 1),
        ])
    func syntaxErrorAlwaysHasLine(text: String, line: Int) {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
        #expect(error?.line == line)
    }

    @Test(
        "a trailing comma is refused with its position, as WireMock's parser does",
        arguments: [
            ("[1, 2,]", 1, 6), ("{\n  \"a\": 1,\n}", 2, 9), ("[[1],\n [2] , \n]", 2, 6),
        ])
    func trailingComma(text: String, line: Int, column: Int) {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
        #expect(error?.line == line)
        #expect(error?.column == column)
        #expect(error?.message.contains("Trailing comma") == true)
    }

    @Test("commas and brackets inside strings are text")
    func commasInStrings() throws {
        #expect(
            try JSONValue.parse(#"["a,]", "b,}", "\",]"]"#)
                == .array([.string("a,]"), .string("b,}"), .string("\",]")]))
    }

    @Test("the line of a key path is where that key is written, not an earlier mention of the name")
    func keyPathLines() {
        let text = Data(
            #"""
            {
              "name": "status",
              "mappings": [
                {"response": {"status": 200}},
                {
                  "response": {
                    "status": 999
                  }
                }
              ],
              "list": ["a", {"status": 1}]
            }
            """#.utf8)
        #expect(TextPosition.line(ofKeyPath: ["mappings", "1", "response", "status"], in: text) == 7)
        #expect(TextPosition.line(ofKeyPath: ["mappings", "0", "response", "status"], in: text) == 4)
        #expect(TextPosition.line(ofKeyPath: ["list", "1", "status"], in: text) == 11)
        #expect(TextPosition.line(ofKeyPath: ["name"], in: text) == 2)
        #expect(TextPosition.line(ofKeyPath: ["mappings", "5"], in: text) == 3)
        #expect(TextPosition.line(ofKeyPath: ["missing", "deeper"], in: text) == nil)
    }
}
