extension PokestubAdminClient {
    /// Checks that the journal holds exactly `count` requests matching a pattern.
    ///
    /// ```swift
    /// try await admin.verify(count: 1, .get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")))
    /// ```
    ///
    /// - Parameters:
    ///   - count: The exact number expected; 0 checks that no such request was sent.
    ///   - pattern: The request pattern.
    ///   - file: The file of the call, which the failure report names; leave the default (`#filePath`).
    ///   - line: The line of the call, which the failure report names; leave the default (`#line`).
    /// - Throws: ``PokestubClientError/verificationFailed(_:)`` whose description gives the actual count, the
    ///   requests received, and the field-by-field differences of the closest ones; other
    ///   ``PokestubClientError``s when the server cannot be asked.
    public func verify(
        count: Int, _ pattern: RequestPatternBuilder, file: StaticString = #filePath, line: UInt = #line
    ) async throws(PokestubClientError) {
        try await verify(.exactly(count), pattern, file: file, line: line)
    }

    /// Checks that at least one journaled request matches a pattern.
    ///
    /// - Parameters:
    ///   - pattern: The request pattern.
    ///   - file: The file of the call, which the failure report names; leave the default (`#filePath`).
    ///   - line: The line of the call, which the failure report names; leave the default (`#line`).
    /// - Throws: ``PokestubClientError/verificationFailed(_:)`` when none matched; other
    ///   ``PokestubClientError``s when the server cannot be asked.
    public func verify(
        _ pattern: RequestPatternBuilder, file: StaticString = #filePath, line: UInt = #line
    ) async throws(PokestubClientError) {
        try await verify(.atLeast(1), pattern, file: file, line: line)
    }

    /// Checks how many journaled requests match a pattern.
    ///
    /// The count comes from `POST /__admin/requests/count`. When it is wrong, the failure is explained with
    /// more questions to the server: the journal (`GET /__admin/requests`), which received requests pass each
    /// field of the pattern on its own (`POST /__admin/requests/find` once per field, so the server's own
    /// matching decides), and the server's near misses for unmatched requests.
    ///
    /// The failure names the call (``VerificationFailure/callSite``), because Swift Testing and XCTest list a
    /// thrown error at the test function rather than at the line that threw it.
    ///
    /// A path (`.get("/api/v2/pokemon/25")`, `urlPath`) compares the whole path, trailing `/` included, as
    /// WireMock's `urlPath` does, while a PokestubTesting `StubRoute` (like pokeapi.co) ignores a trailing
    /// `/`: so a request a route answered can fail a verification written with the route's path. When requests
    /// differ from the pattern only in the trailing `/` (asked of the server with the `/` added or removed), the
    /// failure leads with that (``VerificationFailure/trailingSlashOnly``).
    ///
    /// Before it throws, what explains the failure (``failureAttachments(for:)``: the report, and the journal as
    /// JSON and HAR) is recorded as attachments of the running Swift Testing test (Swift 6.2 and later), and
    /// handed to the client's recorder (``recordingFailureAttachments(with:)``) when it has one.
    ///
    /// - Parameters:
    ///   - expected: The expected count, e.g. `.exactly(1)`, `.atLeast(2)` or `.never`.
    ///   - pattern: The request pattern.
    ///   - file: The file of the call, which the failure report names; leave the default (`#filePath`).
    ///   - line: The line of the call, which the failure report names; leave the default (`#line`).
    /// - Throws: ``PokestubClientError/verificationFailed(_:)`` when the count is not as expected; other
    ///   ``PokestubClientError``s when the server cannot be asked, e.g. ``PokestubClientError/refused(method:url:status:errors:)``
    ///   with 409 and "The request journal is off" when the daemon keeps no journal (`--journal-max-entries 0`),
    ///   so that `.never` cannot pass for lack of a journal.
    public func verify(
        _ expected: RequestCount, _ pattern: RequestPatternBuilder, file: StaticString = #filePath, line: UInt = #line
    ) async throws(PokestubClientError) {
        let count = try await countRequests(pattern)
        guard !expected.isSatisfied(by: count) else { return }
        var failure = await explainFailure(expected: expected, actualCount: count, pattern: pattern)
        failure.callSite = CallSite(file: file, line: line)
        await recordFailureAttachments(for: .verificationFailed(failure))
        throw .verificationFailed(failure)
    }

    /// Gathers what the report of a failed verification shows. Best effort: a question the server cannot
    /// answer leaves its section out.
    func explainFailure(
        expected: RequestCount, actualCount: Int, pattern: RequestPatternBuilder
    ) async -> VerificationFailure {
        let received = (try? await requests(limit: VerificationFailure.receivedLimit)) ?? []
        var failure = VerificationFailure(
            expected: expected, actualCount: actualCount, pattern: pattern, received: received)
        if actualCount > 0 {
            failure.matching = Array(
                ((try? await findRequests(pattern)) ?? []).suffix(VerificationFailure.receivedLimit))
        }
        if !received.isEmpty {
            failure.closest = await closestRequests(to: pattern, among: received.map(\.request))
            if let other = pattern.url.togglingTrailingSlash {
                var slashed = pattern
                slashed.url = other
                failure.trailingSlashOnly = Array(
                    ((try? await findRequests(slashed)) ?? []).suffix(VerificationFailure.receivedLimit))
            }
        }
        failure.nearMisses = Array(((try? await nearMisses()) ?? []).prefix(5))
        return failure
    }

    /// The received requests that fail the fewest fields of the pattern (at most 3), with those fields.
    private func closestRequests(
        to pattern: RequestPatternBuilder, among requests: [LoggedRequest]
    ) async -> [VerificationFailure.ClosestRequest] {
        var passing: [(field: PatternField, requests: Set<LoggedRequest>)] = []
        for field in PatternField.fields(of: pattern) {
            guard let found = try? await findRequests(field.pattern) else { return [] }
            passing.append((field, Set(found)))
        }
        let ranked = requests.compactMap { request -> VerificationFailure.ClosestRequest? in
            let failed = passing.filter { !$0.requests.contains(request) }.map(\.field)
            guard !failed.isEmpty else { return nil }
            return VerificationFailure.ClosestRequest(
                request: request, differences: failed.map { $0.difference(for: request) })
        }
        // Stable: among requests with as many differences, the newest (first in the journal) comes first.
        let sorted = ranked.enumerated().sorted {
            ($0.element.differences.count, $0.offset) < ($1.element.differences.count, $1.offset)
        }
        return sorted.prefix(3).map(\.element)
    }
}

/// One field of a request pattern, alone: what the server is asked about to explain a failed verification.
struct PatternField: Sendable {
    /// The field's name in a difference line, e.g. `query parameter limit`.
    var label: String
    /// What the field expects, in words.
    var expected: String
    /// A pattern with only this field.
    var pattern: RequestPatternBuilder
    /// What the request has in this field, or `nil` when absent.
    var actual: @Sendable (LoggedRequest) -> String?

    /// `query parameter limit: expected equalTo "20", got "21"`, as the server writes near-miss differences.
    func difference(for request: LoggedRequest) -> String {
        let got = actual(request).map { $0.debugDescription } ?? "nothing"
        return "\(label): expected \(expected), got \(got)"
    }

    /// Every field of a pattern: method, URL, each query parameter, each header, each body pattern.
    static func fields(of pattern: RequestPatternBuilder) -> [PatternField] {
        var fields: [PatternField] = []
        if pattern.method != "ANY" {
            fields.append(
                PatternField(
                    label: "method", expected: pattern.method.debugDescription,
                    pattern: RequestPatternBuilder(method: pattern.method), actual: { $0.method }))
        }
        if let field = pattern.url.field {
            let pathOnly = field.name.hasPrefix("urlPath")
            fields.append(
                PatternField(
                    label: field.name, expected: field.value.debugDescription,
                    pattern: RequestPatternBuilder(url: pattern.url), actual: { pathOnly ? $0.path : $0.url }))
        }
        for (name, matcher) in pattern.queryParameters.sorted(by: { $0.key < $1.key }) {
            fields.append(
                PatternField(
                    label: "query parameter \(name)", expected: matcher.description,
                    pattern: RequestPatternBuilder(queryParameters: [name: matcher]),
                    actual: { request in
                        let values = request.queryParameters[name] ?? []
                        return values.isEmpty ? nil : values.joined(separator: ", ")
                    }))
        }
        for (name, matcher) in pattern.headers.sorted(by: { $0.key < $1.key }) {
            fields.append(
                PatternField(
                    label: "header \(name)", expected: matcher.description,
                    pattern: RequestPatternBuilder(headers: [name: matcher]),
                    actual: { request in
                        let values = request.headerValues(name)
                        return values.isEmpty ? nil : values.joined(separator: ", ")
                    }))
        }
        for matcher in pattern.bodyPatterns {
            fields.append(
                PatternField(
                    label: "body", expected: matcher.description,
                    pattern: RequestPatternBuilder(bodyPatterns: [matcher]),
                    actual: { request in
                        guard !request.body.isEmpty else { return nil }
                        return String((request.bodyText ?? "<\(request.body.count) bytes, not UTF-8>").prefix(200))
                    }))
        }
        return fields
    }
}
