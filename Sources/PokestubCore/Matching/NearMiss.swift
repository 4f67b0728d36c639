/// A stub that came close to matching a request, and how it differs: what pokestub shows for every
/// unmatched request.
package struct NearMiss: Sendable {
    /// The stub.
    package var stub: StubMapping
    /// How the request compares with its pattern.
    package var result: MatchResult

    /// The closest stubs to a request among several stub sets, closest first: the closest of each set, merged.
    ///
    /// - Parameters:
    ///   - request: The unmatched request.
    ///   - indexes: The stub sets (a session's own, then the daemon's).
    ///   - limit: How many to return.
    package static func closest(to request: HTTPRequest, in indexes: [StubIndex], limit: Int = 3) -> [NearMiss] {
        Levenshtein.withBudget {
            MatchBudget.measuring(steps: MatchBudget.nearMissSteps) {
                closest(to: request, inAll: indexes, limit: limit)
            }
            .0
        }
    }

    private static func closest(to request: HTTPRequest, inAll indexes: [StubIndex], limit: Int) -> [NearMiss] {
        guard indexes.count > 1 else { return indexes.first.map { closest(to: request, in: $0, limit: limit) } ?? [] }
        return indexes.flatMap { closest(to: request, in: $0, limit: limit) }
            .sorted { $0.result.distance < $1.result.distance }
            .prefix(limit)
            .map { $0 }
    }

    /// The closest stubs to a request, closest first.
    ///
    /// - Parameters:
    ///   - request: The unmatched request.
    ///   - index: The stubs to compare with; only those likely to be close are compared, so this stays cheap
    ///     however many stubs there are.
    ///   - limit: How many to return.
    ///
    /// The URL and string comparisons of one search share a budget (``Levenshtein/cellsPerSearch``), so a
    /// long hostile URL costs a bounded time however many stubs there are; the matchers' work (regular
    /// expressions, parsing JSON and XML bodies, XPath) shares a ``MatchBudget`` of
    /// ``MatchBudget/nearMissSteps``, past which they stop and count as differing.
    package static func closest(to request: HTTPRequest, in index: StubIndex, limit: Int = 3) -> [NearMiss] {
        Levenshtein.withBudget {
            MatchBudget.measuring(steps: MatchBudget.nearMissSteps) { closest(to: request, inOne: index, limit: limit) }
                .0
        }
    }

    private static func closest(to request: HTTPRequest, inOne index: StubIndex, limit: Int) -> [NearMiss] {
        var candidates = index.nearMissCandidates(for: request)
        // Comparing every field of every candidate costs; the URL, the method and the query parameters decide
        // most near misses, so only the closest by those get the full comparison. (By URL and method alone,
        // the 70 list pages at one path tied, and the page differing only in `limit` could be left out.) A
        // failed query parameter weighs little next to the URL, as in the full comparison (WireMock's weights).
        let shortlist = max(limit * 8, 24)
        if candidates.count > shortlist {
            candidates = candidates.map { stub in
                let methodDistance = stub.request.method.map { $0 == request.method ? 0.0 : 1.0 } ?? 0
                let queryDistance = Double(stub.request.failedQueryParameters(request)) * 0.05
                return (stub, (stub.request.url?.distance(request) ?? 0) * 2 + methodDistance + queryDistance)
            }
            .sorted { $0.1 < $1.1 }
            .prefix(shortlist)
            .map(\.0)
        }
        return
            candidates
            .map { NearMiss(stub: $0, result: $0.request.evaluate(request)) }
            .sorted { $0.result.distance < $1.result.distance }
            .prefix(limit)
            .map { $0 }
    }

    /// The plain-text body of a 404 for an unmatched request:
    ///
    /// ```
    /// No stub matched GET /api/v2/pokemons/1
    ///
    /// PokeAPI v2 has no endpoint /api/v2/pokemons/1; the closest is /api/v2/pokemon/{id}/ (/api/v2/pokemon/1/)
    ///
    /// Closest stubs:
    /// 1. GET /api/v2/pokemon/1/ (id 8c…, name "GET /api/v2/pokemon/1/")
    ///    urlPath: expected "/api/v2/pokemon/1/", got "/api/v2/pokemons/1"
    /// ```
    ///
    /// - Parameters:
    ///   - request: The unmatched request.
    ///   - nearMisses: The closest stubs, closest first.
    ///   - hints: What the request does wrong against the API's contract (``SchemaSet/hints(for:)``), one line
    ///     each: they come first, before the stubs, as what most likely explains the miss.
    package static func report(for request: HTTPRequest, nearMisses: [NearMiss], hints: [String] = []) -> String {
        var lines = ["No stub matched \(request.method) \(request.rawURL)"]
        if !hints.isEmpty { lines += [""] + hints }
        if nearMisses.isEmpty {
            lines += ["", "There are no stubs to compare with."]
        } else {
            lines += ["", "Closest stubs:"]
            for (position, nearMiss) in nearMisses.enumerated() {
                lines.append("\(position + 1). \(nearMiss.stub.summary)")
                for difference in nearMiss.result.differences {
                    lines.append("   \(difference.description)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension MatchResult.Difference: CustomStringConvertible {
    /// `urlPath: expected "/a", got "/b"` or `query parameter debug: expected absent, got "1"`.
    ///
    /// The method and URL expect a literal value, shown quoted; other fields expect a pattern, shown as its
    /// summary (`equalTo "20"`, `absent`), which is already readable as it is.
    ///
    /// Text that reads the same but differs in Unicode scalars (a decomposed `é` against a precomposed one;
    /// matching compares scalars) gets both written with non-ASCII scalars escaped:
    /// `(Unicode scalars differ: expected equalTo "flab\u{E9}b\u{E9}", got "flabe\u{301}be\u{301}")`.
    package var description: String {
        let actualText = actual.map { $0.debugDescription } ?? "nothing"
        let isLiteral = field == "method" || URLPattern.fieldNames.contains(field)
        let expectedText = isLiteral ? expected.debugDescription : expected
        var line = "\(field): expected \(expectedText), got \(actualText)"
        if let actual, !actual.isEmpty, expectedText.contains(actual), !expectedText.containsScalars(actual) {
            line += " (Unicode scalars differ: expected \(Self.escaped(expectedText)), got \(Self.escaped(actualText)))"
        }
        if let detail { line += " (\(detail))" }
        return line
    }

    /// The text with every non-ASCII scalar written as `\u{XXXX}`.
    private static func escaped(_ text: String) -> String {
        text.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }
            .joined()
    }
}

extension StubMapping {
    /// `GET /api/v2/pokemon/1/ (id …, name "…")`, for reports and logs.
    package var summary: String {
        let url = request.url.map { $0.field.value } ?? "any URL"
        var details = "id \(id.uuidString.lowercased())"
        if let name { details += ", name \(name.debugDescription)" }
        return "\(request.method ?? "ANY") \(url) (\(details))"
    }
}
