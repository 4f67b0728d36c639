import Testing

@testable import PokestubCore

@Suite("Session ids")
struct SessionIDTests {
    @Test("ids are 24 hex digits, every digit random: 96 bits, none fixed")
    func ninetySixRandomBits() {
        let ids = (0..<2_000).map { _ in Session.randomID() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 24 && $0.allSatisfy(\.isHexDigit) && $0 == $0.lowercased() })
        // Each position takes all 16 values across 2,000 ids (a missing one has odds below 1e-50); a UUID's
        // version digit (always 4) and variant digit (8 to b) would not.
        for position in 0..<24 {
            let digits = Set(ids.map { $0[$0.index($0.startIndex, offsetBy: position)] })
            #expect(digits.count == 16, "position \(position) took only \(digits.sorted())")
        }
    }
}
