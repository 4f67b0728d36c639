import Foundation

/// Points upstream links inside served bodies at pokestub itself, so a client that follows `next`,
/// `previous` or any `url` field stays on the stub server.
///
/// Recordings keep the upstream's absolute links exactly as the upstream sent them (`https://pokeapi.co/
/// api/v2/ability/65/`); the shipped stubs in `stubs/` hold the same kind of links. Storing them unchanged
/// keeps recordings faithful, diffable against the live API and independent of the port pokestub happens
/// to run on. At serve time every occurrence of an upstream base URL (the configured `upstream`,
/// `https://pokeapi.co`, any `targetBaseUrl` recorded from at run time, and the upstream a stub was recorded
/// from, which its `metadata` names: ``StubMapping/recordedUpstream``) followed by `/`, `"`, `?`, `#`
/// or the end of a token is replaced with the daemon's base URL (``ServerInfo/baseURL``), in bodies and in
/// the `Location` header of redirects. JSON's escaped form (`https:\/\/pokeapi.co`) is handled too.
///
/// The rewritten body is prepared once per body and base URL and kept with the stub's ``ResponseBody``
/// (``ResponseBody/variant(for:make:)``), so it lives exactly as long as the stub does: after the first
/// request, serving costs one uncontended lock and one dictionary lookup, and a body without upstream links is
/// served as it is (no copy). Binary bodies (images, audio, archives) are never touched. Turn the whole thing
/// off with the config key `rewriteUpstreamLinks: false`.
///
/// The upstream bases are kept with the daemon's other per-request facts (``ServerInfo/Serving``), which a
/// request reads in one lock and hands to ``rewrite(_:to:recordedFrom:serving:)``; a ``ServerInfo`` has one
/// rewriter.
package final class LinkRewriter: Sendable {
    private let info: ServerInfo

    /// Creates a rewriter.
    ///
    /// - Parameters:
    ///   - upstreamBases: Upstream base URLs to replace, e.g. `["https://pokeapi.co"]`; empty ones and
    ///     duplicates are ignored, a trailing `/` is dropped.
    ///   - info: Where the daemon's own base URL is read, at the first request after it changes.
    package init(upstreamBases: [String], info: ServerInfo) {
        self.info = info
        let bases = LinkRewriter.normalized(upstreamBases)
        info.update { serving in
            serving.upstreamBases = bases
            serving.linkGeneration += 1
        }
    }

    /// The upstream base URLs being replaced.
    package var upstreamBases: [String] {
        info.serving.upstreamBases
    }

    /// Adds an upstream base URL to replace (a `targetBaseUrl` recorded from at run time); clears the cache
    /// when it is new.
    ///
    /// - Parameter base: The base URL, e.g. `http://127.0.0.1:9000`.
    package func addUpstreamBase(_ base: String) {
        info.update { serving in
            let updated = LinkRewriter.normalized(serving.upstreamBases + [base])
            if updated != serving.upstreamBases {
                serving.upstreamBases = updated
                serving.linkGeneration += 1
            }
        }
    }

    /// A stub's response with upstream links pointing at the daemon, made once per body and base URL.
    ///
    /// - Parameters:
    ///   - response: The stub's response; the rewritten body is kept with its body object.
    ///   - base: The base URL links should point at; default the daemon's (a session passes its own).
    ///   - recordedFrom: The upstream base URL the stub was recorded from, replaced too.
    /// - Returns: The response to send; the same body object when there is nothing to rewrite.
    package func rewrite(_ response: HTTPResponse, to base: String? = nil, recordedFrom: String? = nil) -> HTTPResponse
    {
        rewrite(response, to: base, recordedFrom: recordedFrom, serving: info.serving)
    }

    /// ``rewrite(_:to:recordedFrom:)`` with the upstream bases the request read with the daemon's other
    /// per-request facts (`serving`), so it takes no lock for them.
    func rewrite(
        _ response: HTTPResponse, to base: String?, recordedFrom: String?, serving: ServerInfo.Serving
    ) -> HTTPResponse {
        let target = base ?? info.baseURL
        var result = response
        let (configured, generation) = (serving.upstreamBases, serving.linkGeneration)
        let bases = recordedFrom.map { LinkRewriter.normalized(configured + [$0]) } ?? configured
        rewriteLocation(&result, to: target, bases: bases)
        let body = response.body
        guard body.count >= 8 else { return result }
        let key = ResponseBody.VariantKey(generation: generation, target: target, recordedFrom: recordedFrom)
        result.body = body.variant(for: key) {
            guard !LinkRewriter.isBinary(response.headers["Content-Type"]),
                let data = LinkRewriter.rewrite(body.data, bases: bases, to: target)
            else { return nil }
            return ResponseBody(data)
        }
        return result
    }

    /// A matched stub's response with upstream links pointing at `base` (the daemon's by default), as
    /// ``rewrite(_:to:recordedFrom:serving:)`` makes it; a body file's rewritten body is kept with its bytes
    /// (``BodyFile/response(with:variant:make:)``), so reading both takes one lock.
    func rewrite(_ match: StubIndex.Match, to base: String?, serving: ServerInfo.Serving) -> HTTPResponse {
        guard let bodyFile = match.bodyFile else {
            return rewrite(match.unfilledResponse, to: base, recordedFrom: match.recordedUpstream, serving: serving)
        }
        let target = base ?? info.baseURL
        let bases =
            match.recordedUpstream.map { LinkRewriter.normalized(serving.upstreamBases + [$0]) }
            ?? serving.upstreamBases
        var result = match.unfilledResponse
        rewriteLocation(&result, to: target, bases: bases)
        let key = ResponseBody.VariantKey(
            generation: serving.linkGeneration, target: target, recordedFrom: match.recordedUpstream)
        let contentType = result.headers["Content-Type"]
        return bodyFile.response(with: result, variant: key) { body in
            guard body.count >= 8, !LinkRewriter.isBinary(contentType),
                let data = LinkRewriter.rewrite(body.data, bases: bases, to: target)
            else { return nil }
            return ResponseBody(data)
        }
    }

    /// A proxied response with upstream links pointing at the daemon, computed now (not cached).
    ///
    /// - Parameter response: The response built from the upstream's.
    /// - Returns: The response to send.
    package func rewriteOnce(_ response: HTTPResponse) -> HTTPResponse {
        var result = response
        rewriteLocation(&result, to: info.baseURL, bases: upstreamBases)
        if response.body.count > 0, !LinkRewriter.isBinary(response.headers["Content-Type"]),
            let data = LinkRewriter.rewrite(response.body.data, bases: upstreamBases, to: info.baseURL)
        {
            result.body = ResponseBody(data)
        }
        return result
    }

    private func rewriteLocation(_ response: inout HTTPResponse, to target: String, bases: [String]) {
        guard (300..<400).contains(response.status) || response.status == 201,
            let location = response.headers["Location"]
        else { return }
        let data = Data(location.utf8)
        if let rewritten = LinkRewriter.rewrite(data, bases: bases, to: target) {
            response.headers.replace(name: "Location", value: String(decoding: rewritten, as: UTF8.self))
        }
    }

    /// Replaces upstream base URLs in bytes, in one pass: a body without a link is read once and not copied.
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - bases: Base URLs to replace, without trailing `/`.
    ///   - target: The base URL to put instead, without trailing `/`.
    /// - Returns: The new bytes, or `nil` when nothing was replaced.
    package static func rewrite(_ data: Data, bases: [String], to target: String) -> Data? {
        var patterns: [(needle: [UInt8], replacement: [UInt8])] = []
        let replacement = Array(target.utf8)
        for base in bases where base != target && !base.isEmpty {
            let needle = Array(base.utf8)
            patterns.append((needle, replacement))
            let escaped = escapingSlashes(needle)
            if escaped != needle { patterns.append((escaped, escapingSlashes(replacement))) }
        }
        guard !patterns.isEmpty else { return nil }
        // The patterns' bytes in one array and their places in another, so the loop below reads them through
        // raw pointers, with no reference counting per candidate.
        let arena = patterns.flatMap { $0.needle + $0.replacement }
        var spans: [Span] = []
        var offset = 0
        for pattern in patterns {
            spans.append(Span(needle: pattern.needle, at: offset, replacementLength: pattern.replacement.count))
            offset += pattern.needle.count + pattern.replacement.count
        }
        var firstBytes = [Bool](repeating: false, count: 256)
        for span in spans { firstBytes[Int(span.first)] = true }
        let onlyFirst = Set(spans.map(\.first)).count == 1 ? spans[0].first : nil
        // The bytes every needle starts with (`http` for http and https base URLs), up to eight.
        var common = patterns[0].needle.prefix(8)
        for pattern in patterns.dropFirst() {
            common = common.prefix(zip(common, pattern.needle).prefix { $0 == $1 }.count)
        }
        let shared = Span(needle: Array(common), at: 0, replacementLength: 0)
        return data.withUnsafeBytes { bytes in
            arena.withUnsafeBufferPointer { arena in
                spans.withUnsafeBufferPointer { spans in
                    firstBytes.withUnsafeBufferPointer { firstBytes in
                        replaced(
                            in: bytes, arena: arena.baseAddress!, spans: spans,
                            candidates: Candidates(
                                only: onlyFirst, table: firstBytes.baseAddress!, sharedPrefix: shared.prefix,
                                sharedMask: shared.mask))
                    }
                }
            }
        }
    }

    /// One pattern of ``rewrite(_:bases:to:)``: where its needle and replacement lie in the arena, and the
    /// needle's first eight bytes (fewer for a shorter one) as one little-endian word with the mask of the
    /// bytes that word holds.
    private struct Span {
        var needle: Int
        var needleLength: Int
        var replacement: Int
        var replacementLength: Int
        var first: UInt8
        var prefix: UInt64
        var mask: UInt64

        init(needle bytes: [UInt8], at offset: Int, replacementLength: Int) {
            needle = offset
            needleLength = bytes.count
            replacement = offset + bytes.count
            self.replacementLength = replacementLength
            first = bytes.first ?? 0
            var prefix: UInt64 = 0
            var mask: UInt64 = 0
            for index in 0..<min(8, bytes.count) {
                prefix |= UInt64(bytes[index]) << (8 * UInt64(index))
                mask |= 0xFF << (8 * UInt64(index))
            }
            self.prefix = prefix
            self.mask = mask
        }
    }

    /// The bytes a pattern starts with: one (every base an `http` or `https` URL: `h`), found with `memchr`, or
    /// several, looked up in a table of 256.
    private struct Candidates {
        var only: UInt8?
        var table: UnsafePointer<Bool>
        /// The first bytes all patterns share (up to eight) as a little-endian word, and the mask of the bytes
        /// it holds: a candidate whose word differs there is no pattern's.
        var sharedPrefix: UInt64
        var sharedMask: UInt64

        /// The offset of the next byte a pattern starts with, at or after `index`, or `nil`.
        func next(in start: UnsafeRawPointer, from index: Int, count: Int) -> Int? {
            if let only {
                guard let found = memchr(start + index, Int32(only), count - index) else { return nil }
                return start.distance(to: UnsafeRawPointer(found))
            }
            var index = index
            while index < count {
                if table[Int(start.load(fromByteOffset: index, as: UInt8.self))] { return index }
                index += 1
            }
            return nil
        }
    }

    /// The loop of ``rewrite(_:bases:to:)``, the body's one pass: `memchr` finds each byte a pattern starts
    /// with (a PokeAPI body has thousands of `h`s), the eight bytes from there, loaded as one word, rule out
    /// most candidates by the bytes all patterns share and most patterns by their own first eight, `memcmp`
    /// compares the rest of those that remain, and the bytes between matches go into one malloc'd buffer with
    /// `memcpy`, which becomes the `Data` without a copy. Nothing is allocated until the first match. Stepping byte by byte in Swift and appending to an array cost more than the rest of
    /// proxying a large PokeAPI answer; Horspool's rule, which skips ahead by the byte under the needle's end,
    /// measured slower, since each step waits for the load before it.
    private static func replaced(
        in bytes: UnsafeRawBufferPointer, arena: UnsafePointer<UInt8>, spans: UnsafeBufferPointer<Span>,
        candidates: Candidates
    ) -> Data? {
        guard let start = bytes.baseAddress else { return nil }
        let count = bytes.count
        var output: UnsafeMutableRawPointer?
        var capacity = 0
        var written = 0
        var copiedUpTo = 0
        var index = 0
        while index < count {
            guard let found = candidates.next(in: start, from: index, count: count) else { break }
            index = found
            let byte = start.load(fromByteOffset: index, as: UInt8.self)
            // The eight bytes from here, when the body has them; near its end each pattern is compared whole.
            let word =
                index + 8 <= count
                ? UInt64(littleEndian: start.loadUnaligned(fromByteOffset: index, as: UInt64.self)) : nil
            if let word, word & candidates.sharedMask != candidates.sharedPrefix {
                index += 1
                continue
            }
            var matched: Span?
            for span in spans where span.first == byte && index + span.needleLength <= count {
                if let word {
                    guard word & span.mask == span.prefix else { continue }
                    let rest = span.needleLength - 8
                    guard rest <= 0 || memcmp(start + index + 8, arena + span.needle + 8, rest) == 0 else { continue }
                } else {
                    guard memcmp(start + index, arena + span.needle, span.needleLength) == 0 else { continue }
                }
                let end = index + span.needleLength
                if end == count || isBoundary(bytes[end]) {
                    matched = span
                    break
                }
            }
            guard let matched else {
                index += 1
                continue
            }
            let needed = written + (index - copiedUpTo) + matched.replacementLength
            if needed > capacity {
                capacity = max(needed, capacity == 0 ? count + count / 8 : capacity * 2)
                guard let grown = realloc(output, capacity) else {
                    free(output)
                    return nil
                }
                output = grown
            }
            memcpy(output! + written, start + copiedUpTo, index - copiedUpTo)
            written += index - copiedUpTo
            memcpy(output! + written, arena + matched.replacement, matched.replacementLength)
            written += matched.replacementLength
            index += matched.needleLength
            copiedUpTo = index
        }
        guard var output else { return nil }
        let rest = count - copiedUpTo
        if written + rest > capacity {
            guard let grown = realloc(output, written + rest) else {
                free(output)
                return nil
            }
            output = grown
        }
        memcpy(output + written, start + copiedUpTo, rest)
        return Data(bytesNoCopy: output, count: written + rest, deallocator: .free)
    }

    /// `url` as JSON may write it, every `/` escaped (`https:\/\/pokeapi.co`, RFC 8259 §7). Built on the
    /// bytes, without Foundation's string search, since it runs for every proxied answer.
    static func escapingSlashes(_ url: [UInt8]) -> [UInt8] {
        url.flatMap { $0 == UInt8(ascii: "/") ? [UInt8(ascii: "\\"), $0] : [$0] }
    }

    /// Whether a byte may follow a base URL for it to be a link to that host (not `https://pokeapi.co.evil`):
    /// one of `/"?#'\ <>),]}`, a space, CR, LF or tab.
    private static func isBoundary(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "\""), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "'"),
            UInt8(ascii: "\\"), UInt8(ascii: " "), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ")"),
            UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: "]"),
            UInt8(ascii: "}"):
            return true
        default:
            return false
        }
    }

    /// Whether a content type is binary, so its body is never searched.
    static func isBinary(_ contentType: String?) -> Bool {
        guard let type = contentType?.asciiLowercased else { return false }
        return [
            "image/", "audio/", "video/", "font/", "application/octet-stream", "application/pdf", "application/zip",
            "application/gzip", "application/x-protobuf", "application/wasm",
        ].contains { type.hasPrefix($0) } && !type.hasPrefix("image/svg")
    }

    private static func normalized(_ bases: [String]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for base in bases {
            let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
            guard !trimmed.isEmpty, seen.insert(trimmed).inserted else { continue }
            result.append(trimmed)
        }
        return result
    }
}
