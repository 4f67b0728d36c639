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

    /// Reads `12`, `-3`, `1.50`: an optional `-`, ASCII digits, and at most one `.` with digits on both
    /// sides; `nil` for anything else.
    ///
    /// Read from the UTF-8 bytes in one pass, since a loop may read a variable as a number once per
    /// iteration. A number of at most 15 digits is worked out from its digits: the quotient of two doubles
    /// that hold their integers exactly is correctly rounded, as `Double(_:)` of the text is, so both give the
    /// same value; longer numbers are read by `Double(_:)`.
    init?(literal: String) {
        var digits = 0
        var integer = 0
        var scale = 0
        var sawPoint = false
        var negative = false
        var previousWasDigit = false
        for (offset, byte) in literal.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if digits <= 15 { integer = integer * 10 + Int(byte - UInt8(ascii: "0")) }
                if sawPoint { scale += 1 }
                previousWasDigit = true
            case UInt8(ascii: "-") where offset == 0:
                negative = true
            case UInt8(ascii: ".") where !sawPoint && previousWasDigit:
                sawPoint = true
                previousWasDigit = false
            default:
                return nil
            }
        }
        guard previousWasDigit else { return nil }
        if digits <= 15 {
            let magnitude = Double(integer) / TemplateNumber.powersOfTen[scale]
            self.init(negative ? -magnitude : magnitude, scale: scale)
            return
        }
        guard let value = Double(literal) else { return nil }
        self.init(value, scale: scale)
    }

    /// 10⁰ to 10¹⁵, each exactly a double.
    private static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]

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
