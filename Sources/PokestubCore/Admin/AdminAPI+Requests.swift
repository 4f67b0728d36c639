import Foundation

extension AdminAPI {
    /// `/__admin/requests`: the journal, one serve event, queries by request pattern, unmatched requests and
    /// their near misses, and waiting for requests (``waitForRequests(_:)``).
    static let requestRoutes: [AdminRoute] = [
        .now("GET", "requests") { api, request throws(AdminError) in try api.listRequests(request.http) },
        .now("DELETE", "requests") { api, _ in api.clearJournal() },
        .now("POST", "requests/reset") { api, _ in api.clearJournal() },
        .now("GET", "requests/{id}") { api, request throws(AdminError) in
            try api.serveEvent(id: request.parameter("id"))
        },
        .now("DELETE", "requests/{id}") { api, request throws(AdminError) in
            try api.removeServeEvent(id: request.parameter("id"))
        },
        .now("POST", "requests/count") { api, request throws(AdminError) in
            try api.requireJournal()
            let pattern = try AdminAPI.requestPattern(request.http.body)
            return .json(.object(["count": .integer(Int64(api.journal.events(matching: pattern).count))]))
        },
        .now("POST", "requests/find") { api, request throws(AdminError) in
            try api.requireJournal()
            let found = api.journal.events(matching: try AdminAPI.requestPattern(request.http.body))
            return try api.charged(found) { .json(.object(["requests": .array(found.map(api.loggedRequest))])) }
        },
        .now("POST", "requests/remove") { api, request throws(AdminError) in
            let removed = api.journal.removeAll(matching: try AdminAPI.requestPattern(request.http.body))
            return try api.charged(removed) { .json(.object(["requests": .array(removed.map(api.loggedRequest))])) }
        },
        .now("GET", "requests/unmatched") { api, request throws(AdminError) in
            try api.requireJournal()
            let unmatched = api.journal.recentUnmatched(limit: try AdminAPI.intParameter(request.http, "limit"))
            return try api.charged(unmatched) {
                .json(.object(["requests": .array(unmatched.map(api.loggedRequest))]))
            }
        },
        .now("GET", "requests/unmatched/near-misses") { api, request throws(AdminError) in
            try api.requireJournal()
            let limit = try AdminAPI.intParameter(request.http, "limit") ?? AdminAPI.defaultNearMissRequests
            let unmatched = api.journal.recentUnmatched(limit: limit)
            // Each request appears once for each of its closest stubs, three at most.
            return try api.charged(
                bodyBytes: 3 * AdminAPI.bodyBytes(unmatched), events: 3 * unmatched.count
            ) { api.unmatchedNearMisses(unmatched) }
        },
        .later("POST", "requests/wait") { api, request throws(AdminError) in try api.waitForRequests(request.http) },
    ]

    /// How many of the most recent unmatched requests `GET /__admin/requests/unmatched/near-misses` explains
    /// without `?limit=`: each costs a search of the stubs, and a full journal took 17 s and 36 MB.
    static let defaultNearMissRequests = 100

    /// `GET /__admin/requests?since=&limit=&unmatched=&matchingStub=&format=`: the journal, newest first; with
    /// `format=har` the same events as a HAR 1.2 log, oldest first (``HARExport``).
    private func listRequests(_ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        try requireJournal()
        var since: Date?
        if let text = request.queryValues("since").first {
            guard let date = AdminAPI.parseDate(text) else {
                throw .badRequest("Invalid parameter since", "expected an ISO 8601 time, got \(text.debugDescription)")
            }
            since = date
        }
        var unmatchedOnly = false
        if let text = request.queryValues("unmatched").first {
            guard let flag = Bool(text) else {
                throw .badRequest("Invalid parameter unmatched", "expected true or false")
            }
            unmatchedOnly = flag
        }
        let stubID = try request.queryValues("matchingStub").first.map { text throws(AdminError) in
            try AdminAPI.uuid(text)
        }
        let limit = try AdminAPI.intParameter(request, "limit")
        let (events, total) = journal.newestFirst(
            since: since, unmatchedOnly: unmatchedOnly, servedBy: stubID, limit: limit)
        let baseURL = journalBaseURL
        switch request.queryValues("format").first {
        case nil, "json"?: break
        case "har"?:
            let export = HARExport(options: recordings?.options ?? RecordingOptions(), baseURL: baseURL)
            let oldestFirst = Array(events.reversed())
            let pieces = stride(from: 0, to: oldestFirst.count, by: HARExport.entriesPerPiece).map {
                $0..<min($0 + HARExport.entriesPerPiece, oldestFirst.count)
            }
            return try chargedStream(oldestFirst, pieces: pieces) {
                export.streamedLog(oldestFirst)
            }
        case let other?:
            throw .badRequest("Invalid parameter format", "expected json or har, got \(other.debugDescription)")
        }
        guard
            events.count > AdminAPI.streamedListingThreshold
                || AdminAPI.bodyBytes(events) > AdminAPI.streamedListingPieceBytes
        else {
            return try charged(events) {
                .json(
                    .object([
                        "requests": .array(events.map { $0.json(baseURL: baseURL) }),
                        "meta": .object(["total": .integer(Int64(total))]),
                        "requestJournalDisabled": .bool(!journal.isEnabled),
                    ]))
            }
        }
        let pieces = AdminAPI.listingPieces(events)
        return try chargedStream(events, pieces: pieces) {
            AdminAPI.streamedListing(
                of: events, pieces: pieces, baseURL: baseURL, total: total, journalDisabled: !journal.isEnabled)
        }
    }

    /// Listings of more serve events than this, or of more body bytes than ``streamedListingPieceBytes``, are
    /// streamed (``streamedListing(of:pieces:baseURL:total:journalDisabled:)``).
    static let streamedListingThreshold = 100

    /// The most serve events in one piece of a streamed listing.
    static let streamedListingPiece = 64

    /// The most request and response body bytes in one piece of a streamed listing, 1 MiB, unless a single
    /// event holds more: it is then a piece of its own.
    static let streamedListingPieceBytes = 1 << 20

    /// The pieces of a streamed listing of `events`: consecutive runs of at most ``streamedListingPiece``
    /// events whose bodies hold at most ``streamedListingPieceBytes`` (an event holding more is alone).
    package static func listingPieces(_ events: [ServeEvent]) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = 0
        var bytes = 0
        for (index, event) in events.enumerated() {
            let size = event.request.body.count + event.responseBodyBytes
            if index > start && (index - start == streamedListingPiece || bytes + size > streamedListingPieceBytes) {
                pieces.append(start..<index)
                start = index
                bytes = 0
            }
            bytes += size
        }
        if start < events.count { pieces.append(start..<events.count) }
        return pieces
    }

    /// `{"requests": [...], "meta": {"total"}, "requestJournalDisabled"}` made while it is sent, one piece of
    /// `pieces` at a time: memory holds the events' snapshot (which shares their bodies with the journal) and
    /// one piece's JSON, however large the journal or its bodies.
    static func streamedListing(
        of events: [ServeEvent], pieces: [Range<Int>], baseURL: String, total: Int, journalDisabled: Bool
    ) -> HTTPResponse {
        let eventPieces = pieces.count
        var response = HTTPResponse(
            status: 200, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]))
        response.stream = ResponseStream(count: eventPieces + 2) { index in
            if index == 0 { return Data(#"{"requests":["#.utf8) }
            if index == eventPieces + 1 {
                let trailer: JSONValue = .object([
                    "meta": .object(["total": .integer(Int64(total))]),
                    "requestJournalDisabled": .bool(journalDisabled),
                ])
                var text = Data("],".utf8)
                text.append(trailer.serialized().dropFirst())
                return text
            }
            var data = Data()
            for position in pieces[index - 1] {
                if position > 0 { data.append(UInt8(ascii: ",")) }
                data.append(events[position].json(baseURL: baseURL).serialized())
            }
            return data
        }
        return response
    }

    private func clearJournal() -> HTTPResponse {
        journal.clear()
        HeapRelease.release(always: true)
        return .json(.object([:]))
    }

    private func serveEvent(id: String) throws(AdminError) -> HTTPResponse {
        guard let event = journal.event(id: try AdminAPI.uuid(id)) else {
            throw .notFound("no serve event with id \(id)")
        }
        return try charged([event]) { .json(event.json(baseURL: journalBaseURL)) }
    }

    private func removeServeEvent(id: String) throws(AdminError) -> HTTPResponse {
        let uuid = try AdminAPI.uuid(id)
        guard journal.removeAll(where: { $0.id == uuid }) > 0 else { throw .notFound("no serve event with id \(id)") }
        return .json(.object([:]))
    }

    /// Throws 409 when the journal is off: an empty answer would pass `verify(.never, …)` whatever was sent.
    func requireJournal() throws(AdminError) {
        guard !journal.isEnabled else { return }
        let key = basePath.isEmpty ? "journal.maxEntries" : "sessions.journalMaxEntries"
        throw AdminError(
            status: 409, title: "The request journal is off",
            detail: "\(key) is 0, so no request is kept and none can be listed, counted or found")
    }

    /// A serve event's request as `find`, `remove` and `unmatched` list it.
    func loggedRequest(_ event: ServeEvent) -> JSONValue {
        event.request.journalJSON(baseURL: journalBaseURL, receivedAt: event.receivedAt)
    }

    /// `{"nearMisses": [...]}`: for each unmatched request, one entry per close stub, as WireMock's, plus
    /// `contractHints` (``SchemaSet/hints(for:)``: what the request does wrong against the API's contract, one
    /// line each) when there are any; a request with hints and no close stub gets one entry without
    /// `stubMapping`.
    private func unmatchedNearMisses(_ unmatched: [ServeEvent]) -> HTTPResponse {
        let index = store.index
        var nearMisses: [JSONValue] = []
        for event in unmatched {
            let hints = contract?.schemas.hints(for: event.request) ?? []
            let hintMember: [String: JSONValue] =
                hints.isEmpty ? [:] : ["contractHints": .array(hints.map(JSONValue.string))]
            let closest = NearMiss.closest(to: event.request, in: index)
            for nearMiss in closest {
                nearMisses.append(
                    .object(
                        [
                            "request": loggedRequest(event),
                            "stubMapping": nearMiss.stub.definition,
                            "matchResult": .object(["distance": .double(nearMiss.result.distance)]),
                            "differences": .array(nearMiss.result.differences.map { .string($0.description) }),
                        ].merging(hintMember) { first, _ in first }))
            }
            if closest.isEmpty && !hints.isEmpty {
                nearMisses.append(.object(["request": loggedRequest(event)].merging(hintMember) { first, _ in first }))
            }
        }
        return .json(.object(["nearMisses": .array(nearMisses)]))
    }

    /// `POST /__admin/requests/wait?count=N&timeoutMs=T` with a request pattern as the body: answers as soon as
    /// `count` (default 1) matching requests are in the journal, counting those already there, with
    /// `{"count", "requests": [...]}`; or after `timeoutMs` (default 10,000, at most 300,000) with 408 and
    /// `{"errors", "count", "requests", "nearMisses"}` naming how many arrived and the closest requests.
    ///
    /// Holds no server thread while waiting: the journal completes the reply when the last request arrives.
    ///
    /// - Throws: ``AdminError``: 400 for a bad pattern or parameter, 409 when the journal is off.
    func waitForRequests(_ request: HTTPRequest) throws(AdminError) -> HTTPReply {
        let pattern = try AdminAPI.requestPattern(request.body)
        let count = try AdminAPI.intParameter(request, "count") ?? 1
        let timeout = try AdminAPI.intParameter(request, "timeoutMs") ?? 10_000
        guard count >= 1 else { throw .badRequest("Invalid parameter count", "expected 1 or more") }
        guard timeout <= 300_000 else {
            throw .badRequest("Invalid parameter timeoutMs", "expected at most 300000 ms, got \(timeout)")
        }
        try requireJournal()
        let journal = self.journal
        let baseURL = journalBaseURL
        let logged = { @Sendable (event: ServeEvent) -> JSONValue in
            event.request.journalJSON(baseURL: baseURL, receivedAt: event.receivedAt)
        }
        return .deferred { complete in
            journal.wait(for: pattern, count: count, timeoutMilliseconds: timeout) { outcome in
                switch outcome {
                case .satisfied(let events):
                    complete(
                        .json(
                            .object(["count": .integer(Int64(events.count)), "requests": .array(events.map(logged))])))
                case .timedOut(let events):
                    let nearMisses = journal.nearMisses(to: pattern, limit: 3).map { event, result in
                        JSONValue.object([
                            "request": logged(event),
                            "matchResult": .object(["distance": .double(result.distance)]),
                            "differences": .array(result.differences.map { .string($0.description) }),
                        ])
                    }
                    let error = AdminError(
                        status: 408, title: "Timed out waiting for requests",
                        detail: "\(events.count) of \(count) matching requests arrived within \(timeout) ms",
                        extraMembers: [
                            "count": .integer(Int64(events.count)), "requests": .array(events.map(logged)),
                            "nearMisses": .array(nearMisses),
                        ])
                    complete(error.response)
                }
            }
        }
    }
}
