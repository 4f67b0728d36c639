/// The normal form of a URI path or query for comparing (RFC 3986 §6.2.2), as pokestub matches URLs.
///
/// Two spellings are the same resource exactly when their normal forms are equal, byte for byte:
/// - Percent-encoding hex digits compare case-insensitively (§6.2.2.1): `%c3%a9` is `%C3%A9`.
/// - A percent-encoded unreserved character (`ALPHA DIGIT - . _ ~`, §2.3) is that character (§6.2.2.2):
///   `%7E` is `~`, `%41` is `A`.
/// - A reserved character (`gen-delims` `: / ? # [ ] @` and `sub-delims` `! $ & ' ( ) * + , ; =`, §2.2) is
///   never equal to its encoded form: `&` and `%26` name different resources, as do `/` and `%2F`.
/// - Bytes a URI cannot hold raw (a space, other ASCII outside the URI grammar, and non-ASCII, which stubs
///   may spell as UTF-8 text) are percent-encoded, as RFC 3987 §3.1 maps an IRI to a URI: `é` is `%C3%A9`.
///   Its Unicode scalars are encoded as they are, never normalised (RFC 3987 §5.3.2.2 leaves normalisation
///   to the spelling), so a decomposed `e%CC%81` is not a precomposed `%C3%A9`.
///
/// The result is ASCII, so comparing normal forms compares bytes. A `%` that starts no valid escape is kept.
enum URINormalForm {
    /// The normal form of a path, a query, or both with their `?`.
    ///
    /// - Parameter text: The component as received or as written in a stub.
    /// - Returns: The normal form, ASCII only.
    static func normalize(_ text: Substring) -> String {
        let utf8 = text.utf8
        guard needsChanging(utf8) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 8)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if let (decoded, next) = PercentDecoding.escape(in: utf8, at: index) {
                if isUnreserved(decoded) {
                    bytes.append(decoded)
                } else {
                    appendEncoded(decoded, to: &bytes)
                }
                index = next
                continue
            }
            if byte == UInt8(ascii: "%") || isAllowedRaw(byte) {
                bytes.append(byte)
            } else {
                appendEncoded(byte, to: &bytes)
            }
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The normal form of a whole string; the string itself, not a copy, when it is in normal form already
    /// (a request path is normalised for every stub it is compared with).
    static func normalize(_ text: String) -> String {
        needsChanging(text.utf8) ? normalize(text[...]) : text
    }

    /// Whether the text holds an escape or a byte a URI cannot hold raw.
    private static func needsChanging(_ utf8: some Sequence<UInt8>) -> Bool {
        utf8.contains { $0 == UInt8(ascii: "%") || !isAllowedRaw($0) }
    }

    /// `ALPHA DIGIT - . _ ~` (RFC 3986 §2.3).
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Unreserved and reserved characters (RFC 3986 §2.2, §2.3): what a URI holds without encoding, the
    /// `gen-delims` and `sub-delims` being ``:/?#[]@!$&'()*+,;=``. A switch, and hex digits computed, not a
    /// set lookup and a digit array made per byte: near misses normalise a request's path once per candidate stub, and a path of a few hundred
    /// bytes that all need encoding spent most of a 404's time hashing and allocating here.
    private static func isAllowedRaw(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default:
            isUnreserved(byte)
        }
    }

    private static func appendEncoded(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "%"))
        bytes.append(hexDigit(byte >> 4))
        bytes.append(hexDigit(byte & 0x0F))
    }

    /// The upper-case hex digit for `value` (0…15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
