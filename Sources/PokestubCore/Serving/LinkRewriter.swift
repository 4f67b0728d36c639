import Foundation
import PokestubLocking

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
package final class LinkRewriter: Sendable {
    private let info: ServerInfo
    private let state: Locked<State>

    private struct State {
        var bases: [String]
        /// Changes with `bases`, so bodies rewritten for the old bases are not reused.
        var generation = 0
    }

    /// Creates a rewriter.
    ///
    /// - Parameters:
    ///   - upstreamBases: Upstream base URLs to replace, e.g. `["https://pokeapi.co"]`; empty ones and
    ///     duplicates are ignored, a trailing `/` is dropped.
    ///   - info: Where the daemon's own base URL is read, at the first request after it changes.
    package init(upstreamBases: [String], info: ServerInfo) {
        self.info = info
        state = Locked(State(bases: LinkRewriter.normalized(upstreamBases)))
    }

    /// The upstream base URLs being replaced.
    package var upstreamBases: [String] {
        state.withLock { $0.bases }
    }

    /// Adds an upstream base URL to replace (a `targetBaseUrl` recorded from at run time); clears the cache
    /// when it is new.
    ///
    /// - Parameter base: The base URL, e.g. `http://127.0.0.1:9000`.
    package func addUpstreamBase(_ base: String) {
        state.withLock { state in
            let updated = LinkRewriter.normalized(state.bases + [base])
            if updated != state.bases {
                state.bases = updated
                state.generation += 1
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
        let target = base ?? info.baseURL
        var result = response
        let (configured, generation) = state.withLock { ($0.bases, $0.generation) }
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

    /// Replaces upstream base URLs in bytes.
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - bases: Base URLs to replace, without trailing `/`.
    ///   - target: The base URL to put instead, without trailing `/`.
    /// - Returns: The new bytes, or `nil` when nothing was replaced.
    package static func rewrite(_ data: Data, bases: [String], to target: String) -> Data? {
        var patterns: [(needle: [UInt8], replacement: [UInt8])] = []
        let replacement = Array(target.utf8)
        for base in bases where base != target {
            let needle = Array(base.utf8)
            patterns.append((needle, replacement))
            let escaped = escapingSlashes(needle)
            if escaped != needle { patterns.append((escaped, escapingSlashes(replacement))) }
        }
        guard !patterns.isEmpty else { return nil }
        // The patterns' bytes in one array and their places in another, so the loop below reads them through
        // raw pointers, with no reference counting per candidate.
        let arena = patterns.flatMap { $0.needle + $0.replacement }
        var spans: [(needle: Int, needleLength: Int, replacement: Int, replacementLength: Int)] = []
        var offset = 0
        for pattern in patterns {
            spans.append((offset, pattern.needle.count, offset + pattern.needle.count, pattern.replacement.count))
            offset += pattern.needle.count + pattern.replacement.count
        }
        return data.withUnsafeBytes { bytes in
            arena.withUnsafeBufferPointer { arena in
                spans.withUnsafeBufferPointer { spans in
                    replaced(in: bytes, arena: arena.baseAddress!, spans: spans)
                }
            }
        }
    }

    /// The loop of ``rewrite(_:bases:to:)``: `memchr` finds each `h` (every pattern is an http or https URL),
    /// `memcmp` compares the patterns there, and the bytes between matches go into one malloc'd buffer with
    /// `memcpy`, which becomes the `Data` without a copy, since stepping byte by byte in Swift and appending
    /// to an array cost more than the rest of proxying a large PokeAPI answer.
    private static func replaced(
        in bytes: UnsafeRawBufferPointer, arena: UnsafePointer<UInt8>,
        spans: UnsafeBufferPointer<(needle: Int, needleLength: Int, replacement: Int, replacementLength: Int)>
    ) -> Data? {
        guard let start = bytes.baseAddress else { return nil }
        let count = bytes.count
        var output: UnsafeMutableRawPointer?
        var capacity = 0
        var written = 0
        var copiedUpTo = 0
        var index = 0
        while index < count {
            guard let found = memchr(start + index, Int32(UInt8(ascii: "h")), count - index) else { break }
            index = start.distance(to: UnsafeRawPointer(found))
            var matched: (length: Int, replacement: Int, replacementLength: Int)?
            for span in spans where index + span.needleLength <= count {
                guard memcmp(start + index, arena + span.needle, span.needleLength) == 0 else { continue }
                let end = index + span.needleLength
                if end == count || isBoundary(bytes[end]) {
                    matched = (span.needleLength, span.replacement, span.replacementLength)
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
            index += matched.length
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

extension LinkRewriter {
    /// Whether any of the base URLs, or its JSON-escaped form (`https:\/\/pokeapi.co`), occurs in the bytes.
    static func containsAny(of bases: [String], in body: Data) -> Bool {
        let needles = bases.flatMap { base -> [Needle?] in
            let bytes = Array(base.utf8)
            return [Needle(bytes), Needle(LinkRewriter.escapingSlashes(bytes))]
        }
        return body.withUnsafeBytes { haystack in
            // One pass per first byte: every base URL starts with `h`, so one pass finds them all.
            Dictionary(grouping: needles.compactMap { $0 }, by: \.first).contains { first, group in
                LinkRewriter.occursAny(group, startingWith: first, in: haystack)
            }
        }
    }

    /// A byte string to find, with its first eight bytes (fewer for a shorter one) as one little-endian word
    /// and the mask of the bytes that word holds.
    private struct Needle {
        let bytes: [UInt8]
        let first: UInt8
        let prefix: UInt64
        let mask: UInt64

        init?(_ bytes: [UInt8]) {
            self.bytes = bytes
            guard let first = bytes.first else { return nil }
            self.first = first
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

    /// Whether any of `needles`, all starting with the byte `first`, occurs in `haystack`: `memchr` finds each
    /// `first`, the eight bytes from there loaded as one word rule out most needles, `memcmp` checks the
    /// rest. One pass serves all the needles: a PokeAPI body has thousands of `h`s, and a pass per needle
    /// (a base URL and its escaped form, for each base) would stop at each of them four times or more.
    /// Horspool's rule, which skips ahead by the byte under the needle's end, measured slower: each step
    /// waits for the load before it (figures in Benchmarks/README.md).
    private static func occursAny(
        _ needles: [Needle], startingWith first: UInt8, in haystack: UnsafeRawBufferPointer
    ) -> Bool {
        guard let start = haystack.baseAddress, let shortest = needles.map(\.bytes.count).min(),
            shortest <= haystack.count
        else { return false }
        let last = haystack.count - shortest
        let wordsEnd = haystack.count - 8  // the last offset an 8-byte load may start at
        var offset = 0
        while offset <= last {
            guard let found = memchr(start + offset, Int32(first), last - offset + 1) else { return false }
            offset = start.distance(to: UnsafeRawPointer(found))
            let word =
                offset <= wordsEnd
                ? UInt64(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) : nil
            for needle in needles where needle.bytes.count <= haystack.count - offset {
                if let word, word & needle.mask != needle.prefix { continue }
                if needle.bytes.withUnsafeBytes({ memcmp(start + offset, $0.baseAddress!, needle.bytes.count) }) == 0 {
                    return true
                }
            }
            offset += 1
        }
        return false
    }
}
