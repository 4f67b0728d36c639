/// Percent-decoding of URL components (RFC 3986 §2.1), done exactly once.
package enum PercentDecoding {
    /// Decodes `%XX` escapes to bytes and reads the result as UTF-8.
    ///
    /// - Parameters:
    ///   - text: The raw component.
    ///   - plusAsSpace: Whether `+` means a space, as in `application/x-www-form-urlencoded` query strings.
    ///   - keepingEncodedSlash: Whether `%2F` stays encoded, so a decoded path keeps its segment boundaries.
    /// - Returns: The decoded string. Malformed escapes (`%G1`, a trailing `%`) are kept literally and invalid
    ///   UTF-8 is repaired with U+FFFD, so decoding never fails on what a client sends.
    static func decode(_ text: Substring, plusAsSpace: Bool = false, keepingEncodedSlash: Bool = false) -> String {
        guard needsDecoding(text, plusAsSpace: plusAsSpace) else { return String(text) }
        return decoded(text, plusAsSpace: plusAsSpace, keepingEncodedSlash: keepingEncodedSlash)
    }

    /// Decodes a whole string.
    static func decode(_ text: String, plusAsSpace: Bool = false, keepingEncodedSlash: Bool = false) -> String {
        // Most paths have nothing to decode: the same string back shares its storage (a new one would cost
        // an allocation for any text over 15 bytes, such as `/api/v2/pokemon/`).
        guard needsDecoding(text[...], plusAsSpace: plusAsSpace) else { return text }
        return decoded(text[...], plusAsSpace: plusAsSpace, keepingEncodedSlash: keepingEncodedSlash)
    }

    /// Whether `text` has anything to decode: a `%`, or a `+` where `+` means a space.
    private static func needsDecoding(_ text: Substring, plusAsSpace: Bool) -> Bool {
        text.containsASCII(UInt8(ascii: "%")) || (plusAsSpace && text.containsASCII(UInt8(ascii: "+")))
    }

    /// `text` with its escapes decoded (and `+`s, where they mean spaces), as the Substring `decode`
    /// describes.
    private static func decoded(_ text: Substring, plusAsSpace: Bool, keepingEncodedSlash: Bool) -> String {
        let utf8 = text.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if let (decoded, next) = escape(in: utf8, at: index) {
                if keepingEncodedSlash && decoded == UInt8(ascii: "/") {
                    bytes.append(contentsOf: [UInt8(ascii: "%"), UInt8(ascii: "2"), UInt8(ascii: "F")])
                } else {
                    bytes.append(decoded)
                }
                index = next
            } else {
                bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The byte a `%XX` escape starting at `index` stands for, and the index after the escape; `nil` when no
    /// valid escape starts there (no `%`, or not two hex digits after it).
    static func escape(
        in utf8: Substring.UTF8View, at index: Substring.UTF8View.Index
    ) -> (byte: UInt8, next: Substring.UTF8View.Index)? {
        guard utf8[index] == UInt8(ascii: "%"),
            let first = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), first != utf8.endIndex,
            let second = utf8.index(first, offsetBy: 1, limitedBy: utf8.endIndex), second != utf8.endIndex,
            let high = hexValue(utf8[first]), let low = hexValue(utf8[second])
        else { return nil }
        return (high << 4 | low, utf8.index(after: second))
    }

    /// The value of one hex digit (RFC 3986 §2.1 `HEXDIG`, either case), or `nil`.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
