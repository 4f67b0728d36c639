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
///
/// The upstream bases are kept with the daemon's other per-request facts (``ServerInfo/Serving``), which a
/// request reads in one lock and hands to ``rewrite(_:to:recordedFrom:serving:)``; a ``ServerInfo`` has one
/// rewriter.
package final class LinkRewriter: Sendable {
    private let info: ServerInfo
    /// Patterns compiled for other bases or targets than the daemon's own (a session's base URL, a stub
    /// recorded from an upstream not configured), by bases and target; emptied when it reaches
    /// ``otherPatternsLimit``.
    private let otherPatterns = Locked<[PatternsKey: LinkPatterns]>([:])
    private static let otherPatternsLimit = 64

    private struct PatternsKey: Hashable {
        var bases: [String]
        var target: String
    }

    /// Creates a rewriter.
    ///
    /// - Parameters:
    ///   - upstreamBases: Upstream base URLs to replace, e.g. `["https://pokeapi.co"]`; empty ones and
    ///     duplicates are ignored, a trailing `/` is dropped.
    ///   - info: Where the daemon's own base URL is read, at the first request after it changes.
    package init(upstreamBases: [String], info: ServerInfo) {
        self.info = info
        let bases = LinkRewriter.normalized(upstreamBases)
        let patterns = LinkPatterns(bases: bases, target: info.baseURL)
        info.update { serving in
            serving.upstreamBases = bases
            serving.linkPatterns = patterns
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
                serving.linkPatterns = LinkPatterns(bases: updated, target: info.baseURL)
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
        let patterns = patterns(serving: serving, recordedFrom: recordedFrom, target: base)
        var result = response
        LinkRewriter.rewriteLocation(&result, with: patterns)
        let body = response.body
        guard body.count >= 8 else { return result }
        let key = ResponseBody.VariantKey(
            generation: serving.linkGeneration, target: patterns.target, recordedFrom: recordedFrom)
        result.body = body.variant(for: key) {
            guard !LinkRewriter.isBinary(response.headers["Content-Type"]), let data = patterns.rewrite(body.data)
            else { return nil }
            return ResponseBody(data)
        }
        return result
    }

    /// A response rendered for one request (a template's) with upstream links pointing at `base` (the daemon's
    /// by default), computed now: its body is never served again, so no variant of it is kept.
    ///
    /// - Parameters:
    ///   - response: The rendered response.
    ///   - base: The base URL links should point at; `nil` for the daemon's.
    ///   - recordedFrom: The upstream base URL the stub was recorded from, replaced too.
    ///   - serving: The daemon's per-request facts the request read.
    /// - Returns: The response to send; the same body when there is nothing to rewrite.
    func rewriteOnce(
        _ response: HTTPResponse, to base: String?, recordedFrom: String?, serving: ServerInfo.Serving
    ) -> HTTPResponse {
        let patterns = patterns(serving: serving, recordedFrom: recordedFrom, target: base)
        var result = response
        LinkRewriter.rewriteLocation(&result, with: patterns)
        if response.body.count >= 8, !LinkRewriter.isBinary(response.headers["Content-Type"]),
            let data = patterns.rewrite(response.body.data)
        {
            result.body = ResponseBody(data)
        }
        return result
    }

    /// A matched stub's response with upstream links pointing at `base` (the daemon's by default), as
    /// ``rewrite(_:to:recordedFrom:serving:)`` makes it; a body file's rewritten body is kept with its bytes
    /// (``BodyFile/response(with:variant:make:)``), so reading both takes one lock.
    ///
    /// The patterns are looked up only when needed (a `Location` to rewrite, a variant not made yet), so a body
    /// file served again costs no lock beyond its own, also for a session, whose patterns are not the daemon's.
    func rewrite(_ match: StubIndex.Match, to base: String?, serving: ServerInfo.Serving) -> HTTPResponse {
        guard let bodyFile = match.bodyFile else {
            return rewrite(match.unfilledResponse, to: base, recordedFrom: match.recordedUpstream, serving: serving)
        }
        var result = match.unfilledResponse
        if LinkRewriter.hasLocationToRewrite(result) {
            LinkRewriter.rewriteLocation(
                &result, with: patterns(serving: serving, recordedFrom: match.recordedUpstream, target: base))
        }
        // The target ``patterns(serving:recordedFrom:target:)`` compiles for.
        let target = base ?? serving.linkPatterns?.target ?? info.baseURL
        let key = ResponseBody.VariantKey(
            generation: serving.linkGeneration, target: target, recordedFrom: match.recordedUpstream)
        let contentType = result.headers["Content-Type"]
        return bodyFile.response(with: result, variant: key) { [self] body in
            guard body.count >= 8, !LinkRewriter.isBinary(contentType),
                let data = patterns(serving: serving, recordedFrom: match.recordedUpstream, target: base).rewrite(
                    body.data)
            else { return nil }
            return ResponseBody(data)
        }
    }

    /// The upstream bases compiled for the daemon's base URL, as requests read them now.
    var daemonPatterns: LinkPatterns {
        info.serving.linkPatterns ?? LinkPatterns(bases: [], target: info.baseURL)
    }

    /// The patterns for a request: the upstream bases it read (`serving`) and the upstream its stub was recorded
    /// from, compiled for `target` (the daemon's base URL when `nil`). The daemon's own come with `serving`;
    /// others are compiled once and kept (``otherPatterns``).
    func patterns(serving: ServerInfo.Serving, recordedFrom: String?, target: String?) -> LinkPatterns {
        let configured = serving.upstreamBases
        let known = recordedFrom.map { LinkRewriter.names(configured, $0) } ?? true
        if known, let patterns = serving.linkPatterns, target == nil || target == patterns.target {
            return patterns
        }
        let key = PatternsKey(
            bases: known ? configured : LinkRewriter.normalized(configured + [recordedFrom!]),
            target: target ?? info.baseURL)
        if let patterns = otherPatterns.withLock({ $0[key] }) { return patterns }
        let patterns = LinkPatterns(bases: key.bases, target: key.target)
        otherPatterns.withLock { cache in
            if cache.count >= LinkRewriter.otherPatternsLimit { cache.removeAll() }
            cache[key] = patterns
        }
        return patterns
    }

    /// Whether `base` adds nothing to `bases` (``normalized(_:)`` would leave them as they are): it is empty,
    /// or one of them with or without a trailing `/`. Compares bytes, so it allocates nothing.
    private static func names(_ bases: [String], _ base: String) -> Bool {
        let bytes = base.utf8
        let length = bytes.last == UInt8(ascii: "/") ? bytes.count - 1 : bytes.count
        guard length > 0 else { return true }
        return bases.contains { known in
            known.utf8.count == length && bytes.prefix(length).elementsEqual(known.utf8)
        }
    }

    /// Whether `response` has a `Location` that links are rewritten in: a redirect's or a 201's.
    private static func hasLocationToRewrite(_ response: HTTPResponse) -> Bool {
        ((300..<400).contains(response.status) || response.status == 201) && response.headers["Location"] != nil
    }

    /// Rewrites the links in `response`'s `Location` header with `patterns`, when it has one to rewrite
    /// (``hasLocationToRewrite(_:)``).
    static func rewriteLocation(_ response: inout HTTPResponse, with patterns: LinkPatterns) {
        guard LinkRewriter.hasLocationToRewrite(response), let location = response.headers["Location"] else { return }
        if let rewritten = patterns.rewrite(Data(location.utf8)) {
            response.headers.replace(name: "Location", value: String(decoding: rewritten, as: UTF8.self))
        }
    }

    /// Replaces upstream base URLs in bytes, in one pass: a body without a link is read once and not copied.
    /// Compiles the patterns for this one call; a request uses the compiled ones
    /// (``patterns(serving:recordedFrom:target:)``).
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - bases: Base URLs to replace, without trailing `/`.
    ///   - target: The base URL to put instead, without trailing `/`.
    /// - Returns: The new bytes, or `nil` when nothing was replaced.
    package static func rewrite(_ data: Data, bases: [String], to target: String) -> Data? {
        LinkPatterns(bases: bases, target: target).rewrite(data)
    }

    /// `url` as JSON may write it, every `/` escaped (`https:\/\/pokeapi.co`, RFC 8259 §7). Built on the
    /// bytes, without Foundation's string search, since it runs for every proxied answer.
    static func escapingSlashes(_ url: [UInt8]) -> [UInt8] {
        url.flatMap { $0 == UInt8(ascii: "/") ? [UInt8(ascii: "\\"), $0] : [$0] }
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
