import Foundation

extension PokestubAdminClient {
    /// The longest wait the server holds in one request: 300,000 ms (5 minutes). Longer waits take several.
    static let longestServerWaitMilliseconds = 300_000

    /// Waits until the journal holds enough requests matching a pattern, counting those already there. Use it
    /// when the app sends a request in the background after the screen under test appears.
    ///
    /// The server does the waiting (`POST {adminPath}/requests/wait?count=N&timeoutMs=T` with the pattern as
    /// the body): it answers `{"count", "requests": [...]}` as soon as the N-th matching request arrives, or
    /// 408 with `{"count", "requests", "nearMisses": [{"request", "differences"}]}` when T ms pass first. So
    /// the wait ends the moment the request arrives, and a timeout names the requests closest to the pattern.
    ///
    /// The client polls `POST {adminPath}/requests/count` every `pollInterval` instead when the server cannot
    /// wait for the expectation: an older daemon without the route (it answers 404 or 405), or an expectation
    /// that only a removal from the journal could meet (`.atMost(n)` and `.never` when more have arrived,
    /// `.exactly(n)` when more than `n` have).
    ///
    /// ```swift
    /// try await admin.waitForRequests(.atLeast(1), .get("/api/v2/pokemon/1/"), timeout: .seconds(5))
    /// ```
    ///
    /// - Parameters:
    ///   - expected: How many to wait for; `.atLeast(1)` waits for the first. `.exactly(n)` returns as soon as
    ///     the count is `n` (it may still grow afterwards).
    ///   - pattern: The request pattern.
    ///   - timeout: The longest wait; 5 seconds by default. Sent to the server in whole milliseconds, rounded up.
    ///   - pollInterval: The pause between counts when polling; 50 ms by default.
    ///   - file: The file of the call, which a timeout's description names; leave the default (`#filePath`).
    ///   - line: The line of the call, which a timeout's description names; leave the default (`#line`).
    /// - Returns: The count that satisfied the expectation.
    /// - Throws: ``PokestubClientError/timedOut(expected:pattern:actualCount:timeout:closest:callSite:)`` when
    ///   the timeout passes first; its description starts with the call's file and line
    ///   (`ListScreenTests.swift:42: timed out after 5.0 seconds waiting for …`) and lists the closest requests
    ///   and how each differs from the pattern (`method: expected "GET", got "POST"`). Other
    ///   ``PokestubClientError``s from the server, e.g. 409 when its journal is off. A timeout is explained
    ///   in attachments first, as a failed ``verify(_:_:file:line:)`` is. In a Swift Testing test,
    ///   `expectRequests(_:_:timeout:pollInterval:sourceLocation:)` records the timeout as an issue at the call
    ///   instead.
    @discardableResult
    public func waitForRequests(
        _ expected: RequestCount, _ pattern: RequestPatternBuilder, timeout: Duration = .seconds(5),
        pollInterval: Duration = .milliseconds(50), file: StaticString = #filePath, line: UInt = #line
    ) async throws(PokestubClientError) -> Int {
        do {
            return try await waitForMatchingRequests(expected, pattern, timeout: timeout, pollInterval: pollInterval)
        } catch {
            let located = error.calledAt(CallSite(file: file, line: line))
            if case .timedOut = located { await recordFailureAttachments(for: located) }
            throw located
        }
    }

    /// ``waitForRequests(_:_:timeout:pollInterval:file:line:)`` without the call site.
    func waitForMatchingRequests(
        _ expected: RequestCount, _ pattern: RequestPatternBuilder, timeout: Duration, pollInterval: Duration
    ) async throws(PokestubClientError) -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        func poll() async throws(PokestubClientError) -> Int {
            try await pollForRequests(expected, pattern, until: deadline, timeout: timeout, pollInterval: pollInterval)
        }
        guard let target = PokestubAdminClient.serverWaitTarget(for: expected) else { return try await poll() }
        while true {
            let remaining = PokestubAdminClient.milliseconds(deadline - clock.now)
            let milliseconds = min(remaining, PokestubAdminClient.longestServerWaitMilliseconds)
            switch try await serverWait(for: pattern, count: target, timeoutMilliseconds: milliseconds) {
            case .unsupported:
                return try await poll()
            case .arrived(let count):
                if expected.isSatisfied(by: count) { return count }
                // More than `.exactly(n)`: only a removal from the journal can bring the count back.
                return try await poll()
            case .timedOut(let count, let closest):
                if remaining > milliseconds { continue }
                throw .timedOut(
                    expected: expected, pattern: pattern.description, actualCount: count, timeout: timeout,
                    closest: closest)
            }
        }
    }

    /// What the server's wait said.
    enum ServerWaitOutcome: Sendable {
        /// Enough matching requests are in the journal: how many.
        case arrived(Int)
        /// The wait timed out: how many matched, and the closest requests that did not.
        case timedOut(Int, [VerificationFailure.ClosestRequest])
        /// The server has no `/requests/wait` (an older daemon).
        case unsupported
    }

    /// One `POST {adminPath}/requests/wait?count=&timeoutMs=`.
    func serverWait(
        for pattern: RequestPatternBuilder, count: Int, timeoutMilliseconds: Int
    ) async throws(PokestubClientError) -> ServerWaitOutcome {
        let path = "/requests/wait"
        let query = [
            URLQueryItem(name: "count", value: String(count)),
            URLQueryItem(name: "timeoutMs", value: String(timeoutMilliseconds)),
        ]
        let answer = try await exchange(
            "POST", path, query: query, body: pattern.json, extraSeconds: Double(timeoutMilliseconds) / 1000)
        switch answer.status {
        case 200..<300:
            guard let arrived = try answer.json()["count"]?.intValue else {
                throw .unexpectedResponse(method: "POST", url: answer.url, reason: "no \"count\" number in the answer")
            }
            return .arrived(arrived)
        case 408:
            let json = try answer.json()
            guard let arrived = json["count"]?.intValue else { throw refusal(answer) }
            let closest = (json["nearMisses"]?.arrayValue ?? []).compactMap {
                nearMiss -> VerificationFailure.ClosestRequest? in
                guard let request = nearMiss["request"], let logged = try? LoggedRequest(json: request) else {
                    return nil
                }
                let differences = nearMiss["differences"]?.arrayValue?.compactMap(\.stringValue) ?? []
                return VerificationFailure.ClosestRequest(request: logged, differences: differences)
            }
            return .timedOut(arrived, closest)
        case 404, 405:
            // 404: no such route (or no such session, which the count in the polling fallback reports);
            // 405: pokestub before the wait took `requests/wait` for a journal entry's id.
            return .unsupported
        default:
            throw refusal(answer)
        }
    }

    /// Counts every `pollInterval` until the expectation is met or `deadline` passes.
    func pollForRequests(
        _ expected: RequestCount, _ pattern: RequestPatternBuilder, until deadline: ContinuousClock.Instant,
        timeout: Duration, pollInterval: Duration
    ) async throws(PokestubClientError) -> Int {
        let clock = ContinuousClock()
        var count = try await countRequests(pattern)
        while !expected.isSatisfied(by: count) {
            guard clock.now < deadline else {
                throw .timedOut(expected: expected, pattern: pattern.description, actualCount: count, timeout: timeout)
            }
            do { try await Task.sleep(for: pollInterval) } catch {
                throw .timedOut(expected: expected, pattern: pattern.description, actualCount: count, timeout: timeout)
            }
            count = try await countRequests(pattern)
        }
        return count
    }

    /// The count to ask the server to wait for, or `nil` when waiting for arrivals cannot meet the
    /// expectation (it is met already or needs fewer requests).
    static func serverWaitTarget(for expected: RequestCount) -> Int? {
        switch expected {
        case .atLeast(let minimum) where minimum >= 1: minimum
        case .exactly(let wanted) where wanted >= 1: wanted
        default: nil
        }
    }

    /// A duration in whole milliseconds, rounded up; 0 for a negative one.
    static func milliseconds(_ duration: Duration) -> Int {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let whole = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let rest = attoseconds % 1_000_000_000_000_000
        return Int(clamping: whole + (rest > 0 ? 1 : 0))
    }
}
