/// Why a verification failed: where it was called, the expected and actual counts, what the server received,
/// and how the requests closest to the pattern differ from it.
///
/// It is an `Error` of its own, so a helper can throw it or hand it to `Issue.record(_:sourceLocation:)`;
/// `PokestubAdminClient`'s `verify` throws it wrapped in ``PokestubClientError/verificationFailed(_:)``.
///
/// ``description`` is what a test log shows:
///
/// ```
/// ListScreenTests.swift:42: expected exactly 1 request matching GET /api/v2/pokemon/ with query limit equalTo "20", but 0 matched.
///
/// Requests received (1, newest first):
///   GET /api/v2/pokemon/?offset=0&limit=21 → 200 (stub "list")
///
/// Closest requests:
///   GET /api/v2/pokemon/?offset=0&limit=21
///     query parameter limit: expected equalTo "20", got "21"
/// ```
public struct VerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The count that was expected.
    public var expected: RequestCount
    /// How many journaled requests matched.
    public var actualCount: Int
    /// The pattern that was verified.
    public var pattern: RequestPatternBuilder
    /// The requests in the journal, newest first (at most ``receivedLimit``); empty when they could not be read.
    public var received: [JournalEntry]
    /// The requests closest to the pattern that did not match it, closest first, with their differences.
    public var closest: [ClosestRequest]
    /// The requests that matched, when more matched than expected.
    public var matching: [LoggedRequest]
    /// The unmatched requests with the stubs closest to them (the server's near misses).
    public var nearMisses: [NearMissReport]
    /// The requests that would have matched with the trailing `/` of the pattern's path added or removed
    /// (``URLMatcher/togglingTrailingSlash``): a `urlPath` compares the whole path as WireMock does, while a
    /// `StubRoute` and pokeapi.co ignore a trailing `/`. When there are any, the report leads with them.
    public var trailingSlashOnly: [LoggedRequest] = []

    /// Where `verify` was called, when it was: the report's first words.
    public var callSite: CallSite?

    /// How many received requests the report keeps: 20.
    public static let receivedLimit = 20

    /// A request that did not match the pattern, and each field in which it differs.
    public struct ClosestRequest: Sendable, Hashable {
        /// The request.
        public var request: LoggedRequest
        /// One line per field, e.g. `query parameter limit: expected equalTo "20", got "21"`.
        public var differences: [String]

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - request: The request.
        ///   - differences: One line per differing field.
        public init(request: LoggedRequest, differences: [String]) {
            self.request = request
            self.differences = differences
        }
    }

    /// Creates a failure report.
    ///
    /// - Parameters:
    ///   - expected: The expected count.
    ///   - actualCount: The actual count.
    ///   - pattern: The verified pattern.
    ///   - received: The journal, newest first.
    ///   - closest: The closest non-matching requests with their differences.
    ///   - matching: The matching requests.
    ///   - nearMisses: The server's near misses for unmatched requests.
    ///   - callSite: Where the verification was called, when known.
    public init(
        expected: RequestCount, actualCount: Int, pattern: RequestPatternBuilder, received: [JournalEntry] = [],
        closest: [ClosestRequest] = [], matching: [LoggedRequest] = [], nearMisses: [NearMissReport] = [],
        callSite: CallSite? = nil
    ) {
        self.callSite = callSite
        self.expected = expected
        self.actualCount = actualCount
        self.pattern = pattern
        self.received = received
        self.closest = closest
        self.matching = matching
        self.nearMisses = nearMisses
    }

    /// The report as lines for a test log.
    public var description: String {
        var summary = "\(expected) matching \(pattern), but \(actualCount) matched."
        if !trailingSlashOnly.isEmpty {
            let count = trailingSlashOnly.count
            summary =
                "\(summary.dropLast()); \(count) request\(count == 1 ? "" : "s") "
                + "\(count == 1 ? "differs" : "differ") only in the trailing slash."
        }
        var lines = [callSite.map { "\($0): expected \(summary)" } ?? "Expected \(summary)"]
        lines.append("")
        if !trailingSlashOnly.isEmpty, let field = pattern.url.field {
            lines.append(
                "Requests that differ only in the trailing slash (\(field.name) compares the whole path, as "
                    + "WireMock's does; a StubRoute, like pokeapi.co, ignores a trailing slash):")
            lines += trailingSlashOnly.map { "  \($0)" }
            lines.append("")
        }
        if received.isEmpty {
            lines.append("The request journal is empty: the server received no requests.")
        } else {
            let more = received.count >= VerificationFailure.receivedLimit ? ", the newest \(received.count)" : ""
            lines.append("Requests received (newest first\(more)):")
            lines += received.map { "  \($0)" }
        }
        if !matching.isEmpty {
            lines += ["", "Requests that matched:"]
            lines += matching.map { "  \($0)" }
        }
        if !closest.isEmpty {
            lines += ["", "Closest requests:"]
            for entry in closest {
                lines.append("  \(entry.request)")
                lines += entry.differences.map { "    \($0)" }
            }
        }
        lines += VerificationFailure.nearMissLines(nearMisses)
        return lines.joined(separator: "\n")
    }

    /// The report's section on the server's near misses, from its blank first line; none when there are none.
    static func nearMissLines(_ nearMisses: [NearMissReport]) -> [String] {
        guard !nearMisses.isEmpty else { return [] }
        var lines = ["", "Unmatched requests and the stubs closest to them:"]
        for nearMiss in nearMisses {
            lines += nearMiss.description.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
        }
        return lines
    }
}
