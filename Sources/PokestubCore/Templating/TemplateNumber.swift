import Foundation

/// A number in a template, with the decimal places it was written with: WireMock's `math` helper works on
/// Java `BigDecimal`s, so `7.5 * 2` is `15.0`, `1.0 / 3` is `0.3` and `7 / 2` is `4` (the left operand's scale,
/// rounded half up).
struct TemplateNumber: Sendable, Hashable {
    /// The value.
    var value: Double
    /// Digits after the decimal point (0 for a whole number).
    var scale: Int

    init(_ value: Double, scale: Int) {
        self.value = value
        self.scale = scale
    }

    init(_ value: Int) {
        self.init(Double(value), scale: 0)
    }

    /// Reads `12`, `-3`, `1.50`; `nil` for anything else.
    init?(literal: String) {
        let body = literal.hasPrefix("-") ? literal.dropFirst() : Substring(literal)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard !body.isEmpty, parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), let value = Double(literal)
        else { return nil }
        self.init(value, scale: parts.count == 2 ? parts[1].count : 0)
    }

    /// The value as a whole number, toward zero, held to `Int`'s range (NaN is 0): what a helper reads as a
    /// count or a bound, since `Int(_:)` of a `Double` outside the range stops the process.
    var clampedInteger: Int {
        if value.isNaN { return 0 }
        if value >= 0x1p63 { return .max }
        if value <= -0x1p63 { return .min }
        return Int(value)
    }

    /// The text Java prints: a whole number without a point, otherwise exactly `scale` decimals.
    var text: String {
        if scale == 0 {
            if let whole = Int(exactly: value.rounded()) { return String(whole) }
            return String(value)
        }
        return String(format: "%.\(scale)f", value)
    }
}
