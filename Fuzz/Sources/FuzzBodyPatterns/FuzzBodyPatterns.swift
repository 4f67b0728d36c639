import Foundation
import FuzzSupport
@testable import PokestubCore

// Fuzz target: the XML and JSON body patterns (`equalToXml`, `matchesXPath`, `equalToJson`,
// `matchesJsonPath`, and any other value pattern around or beside them) on hostile bodies.
//
// Input: a request body, then up to 4 sections each starting with a line `@@pattern@@` and holding a value
// pattern as a stub's `bodyPatterns` lists it:
//
// ```
// <order><id>7</id><item sku="a"/></order>
// @@pattern@@
// {"equalToXml": "<order><id>7</id><item sku=\"a\"/></order>"}
// @@pattern@@
// {"matchesXPath": {"expression": "//item/@sku", "equalTo": "a"}}
// ```
//
// Each pattern becomes a stub (`{"request": {"method": "POST", "bodyPatterns": [pattern]}}`) and the body is
// `POST /fuzz`'s. Matching runs as the engine runs it: through a `StubIndex`, under a `MatchBudget` of the
// daemon's default size; then, as for a request no stub answers, the near misses are worked out (outside
// any budget, as the engine does). Checks, besides never trapping or hanging:
// - matching takes CPU time within a bound: a fixed allowance plus a per-step allowance times the budget,
//   with the daemon's budget and again with a budget of 100,000 steps, so work the budget does not count
//   (XPath evaluation, a tree copied before it is charged) shows up even when it is small; the near misses
//   within a fixed bound;
// - `matches` and `evaluate` agree for each stub, and the distance is 0 exactly for a match;
// - a body that declares an entity (`<!ENTITY`) is matched by no `equalToXml` or `matchesXPath`: such a
//   body is refused before libxml2 reads it, so its entities are never expanded (the billion laughs and
//   its quadratic cousins cost nothing). `FUZZ_ALLOW_XML_ENTITIES=1` leaves `equalToXml` out of this check,
//   for a build whose `equalToXml` still reads such bodies (libxml2 then expands the entities and the
//   tree drops them, so `<a>&e;</a>` equals `<a/>`).

/// CPU seconds matching may take besides its budget: parsing a body of up to 16 KB as JSON and XML for each
/// of 4 patterns, and their own bounded work (`equalToJson`'s 4 million comparisons, `JSONPath`'s million
/// visits).
let fixedSeconds = 0.25
/// CPU seconds one step of a ``MatchBudget`` may take: the default 20 million take about 0.2 s on the
/// project's 2-core machine (10 ns a step); 25 ns leaves room for the coverage instrumentation.
let secondsPerStep = 25e-9
/// A small budget, where work outside the budget stands out against the little the budget allows.
let smallSteps = 100_000
/// CPU seconds the near misses for one request may take: each XML pattern parses the body again (bodies
/// over 64 KB are not compared), the rest as for matching.
let nearMissSeconds = 0.5

let bodyFiles = BodyFileStore(root: nil)
/// Whether `equalToXml` is left out of the entity check (`FUZZ_ALLOW_XML_ENTITIES=1`).
let equalToXmlMayReadEntities = ProcessInfo.processInfo.environment["FUZZ_ALLOW_XML_ENTITIES"] == "1"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBodyPatterns(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let sections = FuzzRequest.sections(Array(UnsafeBufferPointer(start: start, count: count)), marker: "@@pattern@@")
    let body = Data(sections[0])
    let request = HTTPRequest(
        method: "POST", rawURL: "/fuzz", headers: HTTPHeaders(), body: body, clientAddress: "127.0.0.1")
    var stubs: [StubMapping] = []
    var patterns: [StringValuePattern] = []
    for (position, section) in sections.dropFirst().prefix(4).enumerated() {
        guard let json = try? JSONValue.parse(Data(section)), let pattern = try? StringValuePattern(json: json) else {
            continue
        }
        let mapping: JSONValue = .object([
            "id": .string("00000000-0000-4000-8000-00000000000\(position)"), "priority": .integer(Int64(1 + position)),
            "request": .object(["method": .string("POST"), "bodyPatterns": .array([json])]),
            "response": .object(["status": .integer(200)]),
        ])
        guard let stub = try? StubMapping(json: mapping, defaultID: UUID(), source: .runtime, bodyFiles: bodyFiles)
        else { continue }
        stubs.append(stub)
        patterns.append(pattern)
    }
    guard !stubs.isEmpty else { return 0 }
    let index = StubIndex(stubs)

    for steps in [MatchBudget.defaultSteps, smallSteps] {
        let ((_, budget), seconds) = CPUTime.measure { MatchBudget.measuring(steps: steps) { index.match(request) } }
        let allowed = (fixedSeconds + Double(steps) * secondsPerStep) * CPUTime.slowdown
        CPUTime.report("matching under \(steps) steps", seconds: seconds)
        invariant(
            seconds <= allowed,
            "matching took \(seconds) s of CPU time under a budget of \(steps) steps (allowed \(allowed) s; "
                + "\(budget.isSpent ? "spent by \(budget.spentBy?.pattern ?? "?")" : "\(budget.remaining) left"))")
    }

    let (_, nearMissTime) = CPUTime.measure {
        _ = NearMiss.report(for: request, nearMisses: NearMiss.closest(to: request, in: index))
    }
    CPUTime.report("near misses", seconds: nearMissTime)
    invariant(
        nearMissTime <= nearMissSeconds * CPUTime.slowdown,
        "the near misses took \(nearMissTime) s of CPU time (allowed \(nearMissSeconds * CPUTime.slowdown) s)")

    for stub in stubs {
        let (matches, _) = MatchBudget.measuring { stub.request.matches(request) }
        let result = stub.request.evaluate(request)
        invariant(
            matches == result.isMatch,
            "matches says \(matches), evaluate says \(result.isMatch) (\(result.differences)) for \(stub.request)")
        invariant(matches == (result.distance == 0), "a match with distance \(result.distance), or a miss with 0")
    }

    let text = String(decoding: body, as: UTF8.self)
    if text.contains("<!ENTITY") {
        for pattern in patterns where declaresXML(pattern) {
            let (matched, _) = MatchBudget.measuring { pattern.matches(text) }
            invariant(!matched, "a body declaring an entity matched \(pattern.summary)")
        }
    }
    return 0
}

/// Whether the pattern is `equalToXml` or `matchesXPath`, on its own (not inside `and` or `or`).
func declaresXML(_ pattern: StringValuePattern) -> Bool {
    switch pattern {
    case .equalToXml: !equalToXmlMayReadEntities
    case .matchesXPath: true
    default: false
    }
}
