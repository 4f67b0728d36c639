import Foundation

extension StubEngine {
    /// Answers a request through the upstream, later: records it, or passes the upstream's answer on, or
    /// answers 502/504 when there is none. The server's thread is released while the upstream works.
    ///
    /// A recorded answer reaches the client as the upstream sent it (`Set-Cookie`, tokens and all, links
    /// pointed at pokestub when links are rewritten): redaction is for what is written to disk and to the
    /// journal, whose serve event holds the request's and the upstream's header fields redacted.
    ///
    /// The serve event is journaled when the answer is ready. A recorded request names its new stub; a
    /// proxied one or a failure names none, so it is listed by `GET /__admin/requests/unmatched` (no stub
    /// answered it), and `POST /__admin/recordings/snapshot` can turn proxied ones into stubs later. An upstream
    /// answer is checked against its endpoint's schema (``contract``) before it is journaled, so the serve event
    /// carries what does not fit; the answer itself is recorded and passed on as it came.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - scope: The scope it is served within (its journal).
    ///   - mode: The serve mode it is forwarded in.
    ///   - timing: When it arrived.
    /// - Returns: A deferred reply.
    func forward(_ request: HTTPRequest, in scope: ServingScope, mode: ServeMode, timing: ServeTiming) -> HTTPReply {
        let eventID = UUID()
        let plan = recordings.plan(for: request, in: mode)
        let journal = scope.journal
        return .deferred { [self] complete in
            recordings.forward(request, plan: plan, eventID: eventID) { [self] outcome in
                var response: HTTPResponse
                var reference: ServeEvent.StubReference?
                var fromUpstream = false
                var finding: ContractMonitor.Finding?
                switch outcome {
                case .stub(let stub):
                    var fromStub = stub.response.httpResponse
                    fromStub.headers.add(name: "Matched-Stub-Id", value: stub.id.uuidString.lowercased())
                    response = linkRewriter?.rewrite(fromStub, recordedFrom: stub.recordedUpstream) ?? fromStub
                    reference = ServeEvent.StubReference(stub)
                case .recorded(let stub, let upstreamResponse):
                    response = proxiedResponse(upstreamResponse, to: request)
                    response.headers.add(name: "Matched-Stub-Id", value: stub.id.uuidString.lowercased())
                    reference = ServeEvent.StubReference(stub)
                    fromUpstream = true
                    finding = contract?.check(upstreamResponse.body, status: upstreamResponse.status, for: request)
                case .proxied(let upstreamResponse):
                    response = proxiedResponse(upstreamResponse, to: request)
                    fromUpstream = true
                    finding = contract?.check(upstreamResponse.body, status: upstreamResponse.status, for: request)
                case .failed(let error):
                    response = StubEngine.upstreamFailure(error, upstream: plan.upstream)
                }
                if request.method == "HEAD" { response = response.answeringHead() }
                // The client gets the upstream's header fields as sent; the journal keeps them redacted, as a
                // recording would, and the request's too.
                journal.recordAnswer(
                    to: request.redactingHeaders(plan.options), stub: reference, status: response.status,
                    responseHeaders: fromUpstream ? response.headers.redacted(plan.options) : nil, timing: timing,
                    response: response,
                    id: eventID, schemaFinding: finding)
                complete(response)
            }
        }
    }

    /// The upstream's response passed on, its links pointing at pokestub; the body is copied only when links
    /// are rewritten.
    ///
    /// The `Location` header goes through the rewriter (with an empty body). The body is searched in the
    /// upstream's own bytes first (``containsAny(of:in:)``: it stops at the first base URL, and rules most
    /// candidates out by their first eight bytes, where ``LinkRewriter/rewrite(_:bases:to:)`` compares each
    /// pattern whole), rewritten only when a base URL occurs, and shared with its ``ResponseBody``
    /// (``ResponseBody/init(passingThrough:)``).
    ///
    /// - Parameters:
    ///   - upstream: The upstream's answer.
    ///   - request: The request it answers (an answer to `HEAD` keeps the upstream's `Content-Length`).
    func proxiedResponse(_ upstream: UpstreamResponse, to request: HTTPRequest) -> HTTPResponse {
        let headers = HeaderPolicy.proxiedResponseHeaders(upstream.headers, requestMethod: request.method)
        let empty = HTTPResponse(status: upstream.status, headers: headers, body: .empty)
        guard let linkRewriter else {
            var response = empty
            response.body = ResponseBody(passingThrough: upstream.body)
            return response
        }
        var response = linkRewriter.rewriteOnce(empty)
        var body = upstream.body
        let bases = linkRewriter.upstreamBases
        if !LinkRewriter.isBinary(headers["Content-Type"]), StubEngine.containsAny(of: bases, in: body),
            let rewritten = LinkRewriter.rewrite(body, bases: bases, to: info.baseURL)
        {
            body = rewritten
        }
        response.body = ResponseBody(passingThrough: body)
        return response
    }

    /// Whether any of the base URLs, or its JSON-escaped form (`https:\/\/pokeapi.co`), occurs in the bytes.
    static func containsAny(of bases: [String], in body: Data) -> Bool {
        let needles = bases.flatMap { base -> [Needle?] in
            let bytes = Array(base.utf8)
            return [Needle(bytes), Needle(LinkRewriter.escapingSlashes(bytes))]
        }
        return body.withUnsafeBytes { haystack in
            // One pass per first byte: every base URL starts with `h`, so one pass finds them all.
            Dictionary(grouping: needles.compactMap { $0 }, by: \.first).contains { first, group in
                StubEngine.occursAny(group, startingWith: first, in: haystack)
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
    /// rest. One pass serves all the needles: a 542 KB PokeAPI body has 3,569 `h`s, and a pass per needle
    /// (a base URL and its escaped form, for each base) stopped at each of them four times or more, 8% of a
    /// proxied answer's CPU time. (Horspool's rule, which skips ahead by the byte under the needle's end,
    /// took 30%: each step waits for the load before it.)
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

    /// The answer when the upstream gave none: 502, or 504 after a timeout, with a JSON body naming the
    /// upstream and the error.
    ///
    /// ```json
    /// {"status": 502, "error": "unreachable", "upstream": "https://pokeapi.co",
    ///  "url": "https://pokeapi.co/api/v2/pokemon/1/", "message": "Failed to connect …", "code": 7}
    /// ```
    ///
    /// - Parameters:
    ///   - error: What went wrong.
    ///   - upstream: The upstream base URL.
    /// - Returns: The response.
    public static func upstreamFailure(_ error: UpstreamError, upstream: String) -> HTTPResponse {
        var body: [String: JSONValue] = [
            "status": .integer(Int64(error.status)),
            "error": .string(error.kind.rawValue),
            "upstream": .string(upstream),
            "url": .string(error.url),
            "message": .string(error.message),
        ]
        if let code = error.code { body["code"] = .integer(Int64(code)) }
        return .json(.object(body), status: error.status)
    }
}
