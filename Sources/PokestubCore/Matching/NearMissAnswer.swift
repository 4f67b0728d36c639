/// What pokestub answers for an unmatched request: the plain-text near-miss report for the 404's body, and
/// the one-line hint for its `Pokestub-Closest-Stub` header field.
///
/// The header is for test logs that print only the status and the header fields: it names the closest stub
/// and the first field where it differs from the request, e.g.
///
/// ```
/// Pokestub-Closest-Stub: 8cb40e6d-2b1c-4b55-9a55-6c54a8f1d8a1 urlPath
/// Pokestub-Closest-Stub: 8cb40e6d-2b1c-4b55-9a55-6c54a8f1d8a1 query parameter limit
/// Pokestub-Closest-Stub: none
/// ```
///
/// Shape: the stub's id (lower-case UUID, 36 characters), a space, then the field as the report names it
/// (``MatchResult/Difference/field``: `method`, `urlPath`, `query parameter NAME`, `header NAME`, `body`);
/// only the id when the closest stub differs in nothing the pattern compares (a scenario state); `none` when
/// there is no stub to compare with. The value is visible ASCII and spaces only (RFC 9110 §5.5 `field-value`):
/// any other byte of the field, and `%`, is percent-encoded as UTF-8, so a stub's header or parameter name can
/// never put a CR or LF into the answer; the field part is cut to ``maxFieldBytes`` bytes (ending in `...`).
package struct NearMissAnswer: Sendable, Hashable {
    /// The header field's name.
    package static let headerName = "Pokestub-Closest-Stub"
    /// The most bytes of the field part of the header value; with the id, a value is at most 36 + 1 + this.
    package static let maxFieldBytes = 128

    /// The 404's body (``NearMiss/report(for:nearMisses:hints:)``).
    package let report: String
    /// What the request does wrong against the API's contract (``SchemaSet/hints(for:)``), one line each; the
    /// report leads with them.
    package let hints: [String]
    /// The value of the `Pokestub-Closest-Stub` header field.
    package let closestStub: String
    /// The 404 itself: the report as a `text/plain` body and the header field. Made once with the answer, so
    /// the repeated misses the near-miss cache answers share one body, and the journal keeps a reference to it
    /// rather than a copy per miss.
    package let response: HTTPResponse

    /// Makes the report and the header value for a request and its near misses, closest first, and the lines
    /// saying what it does wrong against the API's contract.
    package init(for request: HTTPRequest, nearMisses: [NearMiss], hints: [String] = []) {
        self.hints = hints
        report = NearMiss.report(for: request, nearMisses: nearMisses, hints: hints)
        closestStub = NearMissAnswer.headerValue(for: nearMisses.first)
        var response = HTTPResponse.text(report, status: 404)
        response.headers.add(name: NearMissAnswer.headerName, value: closestStub)
        self.response = response
    }

    package static func == (lhs: NearMissAnswer, rhs: NearMissAnswer) -> Bool {
        lhs.report == rhs.report && lhs.closestStub == rhs.closestStub
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(report)
        hasher.combine(closestStub)
    }

    /// The header value for the closest near miss, or `none` without one.
    static func headerValue(for closest: NearMiss?) -> String {
        guard let closest else { return "none" }
        let id = closest.stub.id.uuidString.lowercased()
        guard let field = closest.result.differences.first?.field else { return id }
        return id + " " + headerSafe(field, limit: maxFieldBytes)
    }

    /// `text` with every byte outside visible ASCII and space, and `%`, percent-encoded, at most `limit`
    /// bytes (cut before an escape, never inside one, then `...`).
    static func headerSafe(_ text: String, limit: Int) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var pieces: [[UInt8]] = []
        for byte in text.utf8 {
            let isPlain = byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "%")
            pieces.append(isPlain ? [byte] : [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
        // A trailing space would be lost to a client's trimming of the field value (RFC 9110 §5.5).
        if pieces.last == [UInt8(ascii: " ")] { pieces[pieces.count - 1] = Array("%20".utf8) }
        var encoded = pieces.flatMap { $0 }
        if encoded.count > limit {
            encoded = []
            for piece in pieces {
                guard encoded.count + piece.count <= limit - 3 else { break }
                encoded += piece
            }
            encoded += Array("...".utf8)
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
