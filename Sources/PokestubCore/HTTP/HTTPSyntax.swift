/// What RFC 9110 allows in the parts of a message pokestub writes or forwards: methods and field names are
/// tokens, field values exclude control characters.
package enum HTTPSyntax {
    /// The most bytes one response header field value of a stub may have, and all of a stub's header fields
    /// together (names, values and `: ` and CRLF): libmicrohttpd builds the response head in the
    /// connection's memory pool (``limits.maxHeaderBytes``, 32 KiB by default), and a head that does not fit
    /// is dropped with the connection.
    package static let maxFieldValueBytes = 8 << 10
    /// See ``maxFieldValueBytes``.
    package static let maxHeaderBytes = 16 << 10

    /// Whether `text` is a token (RFC 9110 §5.6.2): one or more of ``!#$%&'*+-.^_`|~``, digits and letters.
    /// Methods (§9.1) and field names (§5.1) are tokens.
    package static func isToken(_ text: String) -> Bool {
        // On the contiguous bytes of a native string when it has them: stepping `String.Index`es costs more
        // than the test, for every field name of every request.
        !text.isEmpty
            && (text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isTokenCharacter) }
                ?? text.utf8.allSatisfy(isTokenCharacter))
    }

    /// Whether `text` may be a field value (RFC 9110 §5.5): no control characters but horizontal tab, so no
    /// CR, LF or NUL, which would end the field or the message early.
    package static func isFieldValue(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// Whether `byte` is a token character (RFC 9110 §5.6.2 `tchar`): a digit, a letter, or one of
    /// ``!#$%&'*+-.^_`|~``. A switch, not a set: it runs for every byte of every field name of every request.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"),
            UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and horizontal tabs (RFC 9110 §5.6.3 `OWS`), as request framing
    /// and the upstream's field values need. Cut on the UTF-8 bytes, which allocates nothing: both are ASCII,
    /// so each cut falls on a scalar boundary. Walking `Character`s cost more than the rest of the framing
    /// checks together, and Foundation's `trimmingCharacters(in: .whitespaces)` also trims Unicode spaces the
    /// RFC does not name.
    package var trimmingSpaces: Substring {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return self[endIndex...] }
        return Substring(bytes[first...last])
    }
}
