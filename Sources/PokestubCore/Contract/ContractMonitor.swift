import Foundation
import PokestubLocking

/// Watches the upstream's answers for drift from the API's schemas, while the daemon records or proxies.
///
/// Each answer to a `GET` of a path a schema describes (``SchemaSet/endpoint(forPath:)``), with a 2xx status, is
/// checked against that endpoint's schema as it came (the recording keeps the bytes unchanged). What does not
/// fit is:
/// - returned to the caller for the serve event (`schemaViolations`);
/// - logged as a warning once per endpoint and kind of violation (`type`, `required`): the first of each, with
///   the request and the path;
/// - summed up per endpoint for `GET /__admin/contract` (``json``): answers checked, answers that did not fit,
///   first and last seen, and violations by JSON path with array positions as `[*]`, each with its count,
///   first and last seen, and the request that showed it last.
///
/// An answer whose bytes were checked against the same endpoint lately (by body digest, up to 256 remembered)
/// gets that verdict again without being parsed: a recording run that fetches the same page again pays for one
/// parse, not one per answer. It is still counted, summed up and journaled as an answer of its own.
///
/// The summary keeps at most ``maxPathsPerEndpoint`` paths per endpoint (others are counted as
/// `otherViolations`), so an upstream that changed its shape cannot make it grow without bound.
package final class ContractMonitor: Sendable {
    /// The schemas answers are checked against, read when first needed (``init(schemas:logger:)``).
    package var schemas: SchemaSet { readSchemas() }
    private let readSchemas: @Sendable () -> SchemaSet
    /// How many distinct violation paths an endpoint's summary keeps.
    package static let maxPathsPerEndpoint = 100
    /// How many violations of one answer its serve event lists.
    package static let maxViolationsPerAnswer = 20
    private let logger: Logger
    private let state = Locked(State())

    private struct State {
        var endpoints: [String: EndpointSummary] = [:]
        var logged: Set<String> = []
        /// The verdicts on bodies checked lately, by endpoint and body digest, so an upstream answering the
        /// same bytes again is not parsed and validated again: at most ``maxRememberedVerdicts``.
        var verdicts: [CheckedBody: Verdict] = [:]
        /// How many bodies were parsed and validated (the rest reused a verdict).
        var bodiesValidated = 0
    }

    /// How many answers' bodies were parsed and validated; an answer whose bytes were checked lately reuses
    /// that verdict and is not counted here.
    var bodiesValidated: Int { state.withLock { $0.bodiesValidated } }

    /// A body checked against an endpoint's schema.
    private struct CheckedBody: Hashable {
        var endpoint: String
        var body: ContentDigest
    }

    /// Where a body does not fit its endpoint's schema: what depends on the bytes alone.
    private struct Verdict {
        var violations: [SchemaViolation]
        var omitted: Int
    }

    /// How many verdicts are remembered; past it they are forgotten all at once. Each holds at most
    /// ``maxViolationsPerAnswer`` violations.
    static let maxRememberedVerdicts = 256

    private struct EndpointSummary {
        var answers = 0
        var answersNotFitting = 0
        var firstSeen: Date
        var lastSeen: Date
        var paths: [String: PathSummary] = [:]
        var otherViolations = 0
    }

    private struct PathSummary {
        var kind: SchemaViolation.Kind
        var message: String
        var count = 0
        var firstSeen: Date
        var lastSeen: Date
        var lastRequest: String
    }

    /// Creates a monitor.
    ///
    /// - Parameters:
    ///   - schemas: The schemas to check against (``SchemaSet/pokeAPI`` in the daemon), read on each use of
    ///     ``schemas``: a stored set, not an expression that makes one. ``SchemaSet/pokeAPI`` is then made by
    ///     the first answer checked or the first near miss hinted at, not when the daemon starts (38 million
    ///     instructions, 7% of a start with the shipped stubs, that a daemon which only replays stubs that
    ///     match never needs).
    ///   - logger: Where the first violation of each endpoint and kind is logged.
    package init(schemas: @escaping @autoclosure @Sendable () -> SchemaSet, logger: Logger) {
        readSchemas = schemas
        self.logger = logger
    }

    /// One answer's check: the endpoint whose schema it was checked against and where it does not fit.
    package struct Finding: Sendable, Hashable {
        /// The endpoint, `pokemon/$id`.
        package var endpoint: String
        /// The violations (at most ``ContractMonitor/maxViolationsPerAnswer``); empty when the answer fits.
        package var violations: [SchemaViolation]
        /// How many more there were.
        package var omitted: Int
    }

    /// Checks an upstream answer, notes it in the summary and logs what is new.
    ///
    /// - Parameters:
    ///   - body: The answer's body, decoded as the upstream client gives it.
    ///   - status: The answer's status.
    ///   - request: The request it answers.
    ///   - now: When it was seen.
    /// - Returns: The finding, or `nil` when the answer is not checked (not a `GET`, not 2xx, or a path no
    ///   schema describes).
    package func check(_ body: Data, status: Int, for request: HTTPRequest, now: Date = Date()) -> Finding? {
        check(body, digest: nil, status: status, for: request, now: now)
    }

    /// Checks an upstream answer as ``check(_:status:for:now:)`` does, reading the digest its body was given
    /// when it arrived (``UpstreamResponse/bodyDigest``).
    func check(_ response: UpstreamResponse, for request: HTTPRequest, now: Date = Date()) -> Finding? {
        check(response.body, digest: response.bodyDigest, status: response.status, for: request, now: now)
    }

    /// The check itself. A body whose digest was checked against the same endpoint lately gets the same
    /// violations without being parsed again (an upstream answering the same page again, as in a recording
    /// run that repeats): the verdict depends on the bytes and the schema alone. It is still counted,
    /// summed up and logged as a new answer.
    private func check(
        _ body: Data, digest: ContentDigest?, status: Int, for request: HTTPRequest, now: Date
    ) -> Finding? {
        guard request.method == "GET", (200...299).contains(status),
            let endpoint = schemas.endpoint(forPath: request.normalizedPath)
        else { return nil }
        let checked = CheckedBody(endpoint: endpoint.name, body: digest ?? ContentDigest(body))
        let known = state.withLock { $0.verdicts[checked] }
        let verdict = known ?? verdict(on: body, against: endpoint)
        let finding = Finding(endpoint: endpoint.name, violations: verdict.violations, omitted: verdict.omitted)
        let target = "\(request.method) \(request.rawURL)"
        let newKinds = state.withLock { state in
            if known == nil {
                state.bodiesValidated += 1
                if state.verdicts.count >= ContractMonitor.maxRememberedVerdicts { state.verdicts = [:] }
                state.verdicts[checked] = verdict
            }
            return note(finding, target: target, now: now, in: &state)
        }
        for violation in newKinds {
            logger.warning(
                "schema drift: the upstream's answer to \(target) does not fit \(schemas.name) schema "
                    + "\(endpoint.name): \(violation) (first \(violation.kind.rawValue) violation of this endpoint; "
                    + "GET /__admin/contract counts the rest)")
        }
        return finding
    }

    /// Where a body does not fit an endpoint's schema: parsed and validated.
    private func verdict(on body: Data, against endpoint: SchemaEndpoint) -> Verdict {
        guard let value = try? JSONValue.parse(body) else {
            let what = body.isEmpty ? "nothing" : "a body that is not JSON"
            return Verdict(
                violations: [
                    SchemaViolation(path: "$", keyPath: [], kind: .type, message: "expected JSON, got \(what)")
                ],
                omitted: 0)
        }
        let (violations, omitted) = schemas.violations(
            of: value, against: endpoint, limit: ContractMonitor.maxViolationsPerAnswer)
        return Verdict(violations: violations, omitted: omitted)
    }

    /// Adds a finding to the summary; returns the violations of a kind not seen before at its endpoint.
    private func note(_ finding: Finding, target: String, now: Date, in state: inout State) -> [SchemaViolation] {
        var summary =
            state.endpoints[finding.endpoint] ?? EndpointSummary(firstSeen: now, lastSeen: now)
        summary.answers += 1
        summary.lastSeen = now
        var newKinds: [SchemaViolation] = []
        if !finding.violations.isEmpty { summary.answersNotFitting += 1 }
        for violation in finding.violations {
            if state.logged.insert(finding.endpoint + "\n" + violation.kind.rawValue).inserted {
                newKinds.append(violation)
            }
            let path = ContractMonitor.anyPosition(violation.path)
            if var known = summary.paths[path] {
                known.count += 1
                known.lastSeen = now
                known.lastRequest = target
                summary.paths[path] = known
            } else if summary.paths.count < ContractMonitor.maxPathsPerEndpoint {
                summary.paths[path] = PathSummary(
                    kind: violation.kind, message: violation.message, count: 1, firstSeen: now, lastSeen: now,
                    lastRequest: target)
            } else {
                summary.otherViolations += 1
            }
        }
        summary.otherViolations += finding.omitted
        state.endpoints[finding.endpoint] = summary
        return newKinds
    }

    /// `$.stats[0].base_stat` as `$.stats[*].base_stat`: violations at every position of an array are one row.
    static func anyPosition(_ path: String) -> String {
        var result = ""
        var inPosition = false
        for character in path {
            if inPosition {
                if character == "]" {
                    result += "*]"
                    inPosition = false
                } else if !character.isNumber {
                    result.append(character)
                    inPosition = false
                }
                continue
            }
            result.append(character)
            if character == "[" { inPosition = true }
        }
        return result
    }

    /// The summary `GET /__admin/contract` answers:
    ///
    /// ```json
    /// {"schemas": "PokeAPI v2", "endpoints": [{"endpoint": "pokemon/$id", "answers": 3, "answersNotFitting": 1,
    ///  "firstSeen": "…", "lastSeen": "…", "otherViolations": 0, "violations": [{"path": "$.stats[*].base_stat",
    ///  "kind": "type", "message": "expected integer, got string", "count": 1, "firstSeen": "…", "lastSeen": "…",
    ///  "lastRequest": "GET /api/v2/pokemon/25/"}]}]}
    /// ```
    ///
    /// Endpoints by name; violations by count, most first, then by path.
    package var json: JSONValue {
        let endpoints = state.withLock { $0.endpoints }
        let rows = endpoints.keys.sorted().compactMap { name -> JSONValue? in
            guard let summary = endpoints[name] else { return nil }
            let paths = summary.paths.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }
            return .object([
                "endpoint": .string(name),
                "answers": .integer(Int64(summary.answers)),
                "answersNotFitting": .integer(Int64(summary.answersNotFitting)),
                "firstSeen": .string(ServeEvent.timestamp(summary.firstSeen)),
                "lastSeen": .string(ServeEvent.timestamp(summary.lastSeen)),
                "otherViolations": .integer(Int64(summary.otherViolations)),
                "violations": .array(
                    paths.map { path, row in
                        .object([
                            "path": .string(path), "kind": .string(row.kind.rawValue), "message": .string(row.message),
                            "count": .integer(Int64(row.count)),
                            "firstSeen": .string(ServeEvent.timestamp(row.firstSeen)),
                            "lastSeen": .string(ServeEvent.timestamp(row.lastSeen)),
                            "lastRequest": .string(row.lastRequest),
                        ])
                    }),
            ])
        }
        return .object(["schemas": .string(schemas.name), "endpoints": .array(rows)])
    }
}
