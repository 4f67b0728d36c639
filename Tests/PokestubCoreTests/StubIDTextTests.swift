import Foundation
import Testing

@testable import PokestubCore

@Suite("Stub ids as text: read and written as Foundation does")
struct StubIDTextTests {
    @Test("an id reads as UUID(uuidString:) reads it, in either case, and writes as uuidString.lowercased()")
    func randomIDs() {
        for _ in 0..<1_000 {
            let id = UUID()
            #expect(UUID(stubIDText: id.uuidString) == id)
            #expect(UUID(stubIDText: id.uuidString.lowercased()) == id)
            #expect(id.lowercasedText == id.uuidString.lowercased())
        }
        let fixed = "c4b6c1d2-0A1b-4C2d-8e3F-0123456789aB"
        #expect(UUID(stubIDText: fixed) == UUID(uuidString: fixed))
        #expect(UUID(uuidString: fixed)?.lowercasedText == "c4b6c1d2-0a1b-4c2d-8e3f-0123456789ab")
    }

    @Test(
        "any other text is read, or refused, as UUID(uuidString:) does",
        arguments: [
            "", "c4b6c1d2", "not-a-uuid", "c4b6c1d2-0a1b-4c2d-8e3f-0123456789a",
            "c4b6c1d2-0a1b-4c2d-8e3f-0123456789abc",
            "c4b6c1d2-0a1b-4c2d-8e3f-0123456789ag", "c4b6c1d20a1b-4c2d-8e3f-0123456789abc",
            "c4b6c1d2 0a1b 4c2d 8e3f 0123456789ab",
            " 4b6c1d2-0a1b-4c2d-8e3f-0123456789ab", "+4b6c1d2-0a1b-4c2d-8e3f-0123456789ab",
            "c4b6c1d2-0a1b-4c2d-8e3f-0123456789ab ", "c4b6c1d2-0a1b-4c2d-8e3f-01234567890\u{E9}",
            "\u{FF10}4b6c1d2-0a1b-4c2d-8e3f-0123456789ab", "{c4b6c1d2-0a1b-4c2d-8e3f-0123456789ab}",
        ])
    func otherTexts(text: String) {
        #expect(UUID(stubIDText: text) == UUID(uuidString: text))
    }
}
