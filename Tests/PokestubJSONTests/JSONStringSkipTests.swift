import Foundation
import Testing

@testable import PokestubJSON

@Suite("Finding where a JSON string ends")
struct JSONStringSkipTests {
    private func end(_ text: String) -> Int {
        Array(text.utf8).withUnsafeBytes { JSONStringSkip.end(of: $0, openingQuote: 0) }
    }

    @Test("a quote after an even run of backslashes closes; after an odd run it is text")
    func escapes() {
        #expect(end(#""abc", 1"#) == 5)
        #expect(end(#""a\"b", 1"#) == 6)  // \" is a quote inside the string
        #expect(end(#""a\\", 1"#) == 5)  // \\ is a backslash; the next quote closes
        #expect(end(#""a\\\"b", 1"#) == 8)  // \\ then \"
        #expect(end(#""", 1"#) == 2)
        #expect(end(#""https:\/\/pokeapi.co\/", 1"#) == 24)
    }

    @Test("an unclosed string runs to the end")
    func unclosed() {
        #expect(end(#""abc"#) == 4)
        #expect(end(#""abc\""#) == 6)
    }

    @Test("trailing commas and comments are still found after strings ending in backslashes")
    func inScans() throws {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(#"["a\\", "b\"",]"#) }
        #expect(try JSONValue.parse(#"["a\\", "b\",]"]"#) == .array([.string("a\\"), .string("b\",]")]))
    }
}
