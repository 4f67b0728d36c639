import Foundation

/// The parts of a `multipart/*` request body (`multipart/form-data`, RFC 7578, and the other multipart types),
/// split at the boundary its `Content-Type` names, as RFC 2046 §5.1.1 writes them: what `multipartPatterns`
/// test.
///
/// Strict where the RFC is: the boundary is 1 to 70 characters; each delimiter is `--` and the boundary at the
/// start of a line, followed by optional spaces or tabs and CRLF (or `--` for the last); part headers are
/// `name: value` lines ending in CRLF and a blank line; the body must end with the close delimiter. A preamble
/// before the first delimiter and an epilogue after the last are ignored. Anything else is an error, and a
/// request whose body has one matches no multipart pattern. The work is one pass over the body (each position is
/// compared with the delimiter's at most 74 bytes).
struct MultipartBody: Sendable, Hashable {
    /// One part.
    struct Part: Sendable, Hashable {
        /// Its header fields, in order (names as sent).
        var headers: [(name: String, value: String)]
        /// Its content.
        var body: Data

        /// The content as text when it is UTF-8, else empty (as request bodies are matched).
        var bodyText: String { String(data: body, encoding: .utf8) ?? "" }

        /// The `name` parameter of its `Content-Disposition`, if any, for near misses.
        var name: String? {
            guard let disposition = headers.first(where: { $0.name.caseInsensitiveEquals("Content-Disposition") })
            else { return nil }
            return MultipartBody.parameter("name", in: disposition.value)
        }

        static func == (lhs: Part, rhs: Part) -> Bool {
            lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
        }

        func hash(into hasher: inout Hasher) { hasher.combine(body) }
    }

    /// Why a body is not a multipart body.
    struct ParseError: Error, Sendable, Hashable {
        var message: String
    }

    /// The parts, in order.
    var parts: [Part]

    /// Splits a request body.
    ///
    /// - Parameters:
    ///   - body: The request body.
    ///   - contentType: The request's `Content-Type` value.
    /// - Throws: ``ParseError`` when the type is not `multipart/*`, the boundary is missing or invalid, or the
    ///   body does not follow RFC 2046 §5.1.1.
    init(body: Data, contentType: String?) throws(ParseError) {
        guard let contentType else { throw ParseError(message: "no Content-Type") }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let mediaType, mediaType.hasPrefix("multipart/") else {
            throw ParseError(message: "Content-Type \(contentType.debugDescription) is not multipart")
        }
        guard let boundary = MultipartBody.parameter("boundary", in: contentType) else {
            throw ParseError(message: "Content-Type \(contentType.debugDescription) names no boundary")
        }
        guard (1...70).contains(boundary.utf8.count) else {
            throw ParseError(message: "the boundary is \(boundary.utf8.count) characters; RFC 2046 allows 1 to 70")
        }
        parts = try MultipartBody.split([UInt8](body), boundary: Array(("--" + boundary).utf8))
    }

    private static func split(_ bytes: [UInt8], boundary dash: [UInt8]) throws(ParseError) -> [Part] {
        // The first delimiter may open the body; every other one follows a CRLF, which belongs to it.
        var position: Int
        if bytes.starts(with: dash) {
            position = dash.count
        } else if let found = find([13, 10] + dash, in: bytes, from: 0) {
            position = found + 2 + dash.count
        } else {
            throw ParseError(message: "no boundary delimiter in the body")
        }
        var parts: [Part] = []
        while true {
            if bytes[position...].starts(with: [45, 45]) { return parts }  // "--": the close delimiter
            while position < bytes.count, bytes[position] == 32 || bytes[position] == 9 { position += 1 }
            guard bytes[position...].starts(with: [13, 10]) else {
                throw ParseError(message: "a boundary delimiter is not followed by CRLF at byte \(position)")
            }
            position += 2
            guard let end = find([13, 10] + dash, in: bytes, from: position) else {
                throw ParseError(message: "part \(parts.count + 1) is not closed by a boundary delimiter")
            }
            parts.append(try part(bytes[position..<end], number: parts.count + 1))
            position = end + 2 + dash.count
        }
    }

    /// Reads one part: header lines, a blank line, the content.
    private static func part(_ bytes: ArraySlice<UInt8>, number: Int) throws(ParseError) -> Part {
        var headers: [(name: String, value: String)] = []
        var position = bytes.startIndex
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: position) else {
                throw ParseError(message: "part \(number): its header fields do not end with a blank line")
            }
            if lineEnd == position { break }
            let line = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                !line.hasPrefix(" "), !line.hasPrefix("\t")
            else {
                throw ParseError(message: "part \(number): \(line.prefix(80).debugDescription) is not a header field")
            }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            position = lineEnd + 2
        }
        return Part(headers: headers, body: Data(bytes[(position + 2)...]))
    }

    /// The first index at or after `start` where `needle` occurs in `bytes`.
    private static func find<C: RandomAccessCollection>(_ needle: [UInt8], in bytes: C, from start: C.Index) -> C.Index?
    where C.Element == UInt8, C.Index == Int {
        guard let first = needle.first, bytes.endIndex - needle.count >= start else { return nil }
        var index = start
        while index <= bytes.endIndex - needle.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// A parameter of a header value (`boundary` of a `Content-Type`, `name` of a `Content-Disposition`):
    /// a token or a quoted string (RFC 9110 §5.6.6), name compared case-insensitively.
    static func parameter(_ name: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).caseInsensitiveEquals(name) else {
                continue
            }
            var text = pair[1].trimmingCharacters(in: .whitespaces)
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                text = String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            return text
        }
        return nil
    }
}
