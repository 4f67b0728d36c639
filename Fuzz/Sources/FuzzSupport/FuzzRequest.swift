import Foundation
@testable import PokestubCore

/// A request written as fuzz input, close to HTTP/1.1 on the wire so seeds are easy to write and mutations
/// stay meaningful:
///
/// ```
/// GET /api/v2/pokemon/?limit=20
/// Accept: application/json
///
/// body bytes…
/// ```
///
/// The first line is the method and the request target, split at the first space; header lines follow up
/// to an empty line; the rest is the body. Any bytes are accepted: invalid UTF-8 is repaired the way the
/// server's `String(cString:)` repairs what libmicrohttpd hands it, so every input is a request.
public enum FuzzRequest {
    /// Builds the request.
    public static func parse(_ bytes: ArraySlice<UInt8>) -> HTTPRequest {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
            .makeIterator()
        let requestLine = text(lines.next() ?? [])
        let (method, target) = splitOnce(requestLine, at: " ")
        var rest = lines.next() ?? []
        var headers = HTTPHeaders()
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            let line = rest[rest.startIndex..<end]
            rest = end == rest.endIndex ? [] : rest[(end + 1)...]
            if line.isEmpty || line == [UInt8(ascii: "\r")] { break }
            let (name, value) = splitOnce(text(line), at: ":")
            headers.add(name: name, value: String(value.drop { $0 == " " || $0 == "\t" }))
        }
        return HTTPRequest(
            method: method.isEmpty ? "GET" : method, rawURL: target.isEmpty ? "/" : target, headers: headers,
            body: Data(rest), clientAddress: "127.0.0.1")
    }

    /// The input cut at every line that is exactly `marker`: the request first, then what follows each marker.
    public static func sections(_ bytes: [UInt8], marker: String) -> [ArraySlice<UInt8>] {
        let separator = Array("\n\(marker)\n".utf8)
        var sections: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index + separator.count <= bytes.endIndex {
            if bytes[index..<(index + separator.count)].elementsEqual(separator) {
                sections.append(bytes[start..<index])
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        sections.append(bytes[start...])
        return sections
    }

    /// The input cut at every line that is exactly `@@NAME@@` for a NAME in `names`: what comes before the
    /// first such line, then each named section in input order (a name may come more than once).
    public static func namedSections(
        _ bytes: [UInt8], names: [String]
    ) -> (first: ArraySlice<UInt8>, named: [(name: String, bytes: ArraySlice<UInt8>)]) {
        let markers = names.map { (name: $0, bytes: Array("\n@@\($0)@@\n".utf8)) }
        var first: ArraySlice<UInt8>?
        var named: [(name: String, bytes: ArraySlice<UInt8>)] = []
        var current: String?
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "\n"),
                let marker = markers.first(where: { bytes[index...].starts(with: $0.bytes) })
            else {
                index += 1
                continue
            }
            if let current { named.append((current, bytes[start..<index])) } else { first = bytes[start..<index] }
            current = marker.name
            index += marker.bytes.count
            start = index
        }
        if let current { named.append((current, bytes[start...])) } else { first = bytes[start...] }
        return (first ?? [], named)
    }

    /// The bytes as text, invalid UTF-8 repaired.
    public static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        // What `String(cString:)` sees: the bytes up to the first NUL, invalid UTF-8 repaired.
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    static func splitOnce(_ text: String, at separator: Character) -> (String, String) {
        guard let index = text.firstIndex(of: separator) else { return (text, "") }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }
}
