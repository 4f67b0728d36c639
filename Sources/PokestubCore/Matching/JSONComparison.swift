/// JSON equality with WireMock's `equalToJson` options.
enum JSONComparison {
    /// Whether `actual` equals `expected`.
    ///
    /// - Parameters:
    ///   - ignoreArrayOrder: Arrays compare as multisets.
    ///   - ignoreExtraElements: Objects in `actual` may have members `expected` lacks (at every depth).
    static func equal(
        expected: JSONValue, actual: JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool
    ) -> Bool {
        switch (expected, actual) {
        case (.object(let expectedMembers), .object(let actualMembers)):
            if !ignoreExtraElements && expectedMembers.count != actualMembers.count { return false }
            return expectedMembers.allSatisfy { key, value in
                guard let other = actualMembers[key] else { return false }
                return equal(
                    expected: value, actual: other, ignoreArrayOrder: ignoreArrayOrder,
                    ignoreExtraElements: ignoreExtraElements)
            }
        case (.array(let expectedItems), .array(let actualItems)):
            guard expectedItems.count == actualItems.count else { return false }
            if !ignoreArrayOrder {
                return zip(expectedItems, actualItems).allSatisfy {
                    equal(
                        expected: $0, actual: $1, ignoreArrayOrder: ignoreArrayOrder,
                        ignoreExtraElements: ignoreExtraElements)
                }
            }
            var remaining = actualItems
            for item in expectedItems {
                guard
                    let index = remaining.firstIndex(where: {
                        equal(
                            expected: item, actual: $0, ignoreArrayOrder: ignoreArrayOrder,
                            ignoreExtraElements: ignoreExtraElements)
                    })
                else { return false }
                remaining.remove(at: index)
            }
            return true
        default:
            return expected.jsonEquals(actual)
        }
    }
}
