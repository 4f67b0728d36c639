import Foundation
import FuzzSupport
@testable import PokestubCore

// Fuzz target: request parsing and matching.
//
// Input: a request in the ``FuzzRequest`` format, then any number of sections each starting with a line
// `@@pattern@@` and holding a JSON request pattern (fuzz-built stubs):
//
// ```
// POST /api/v2/pokemon/?limit=20
// Content-Type: application/json
// X-Fuzz-JsonPath: $.results[0].name
//
// {"results": [{"name": "bulbasaur"}]}
// @@pattern@@
// {"method": "POST", "urlPathPattern": "/api/v2/pokemon/.*", "bodyPatterns": [{"matchesJsonPath": "$.results"}]}
// ```
//
// Checks, besides never trapping or hanging:
// - `matches` and `evaluate` agree (a request that does not match has at least one difference);
// - the stub index picks the same stub as a plain scan, over shipped stubs near the request plus the
//   fuzz-built ones;
// - a JSON body equals itself under every `equalToJson` option, and `$` finds it with `matchesJsonPath`;
// - a `X-Fuzz-JsonPath` header's expression either is refused when compiled or evaluates on the body.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMatcher(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let sections = FuzzRequest.sections(Array(UnsafeBufferPointer(start: start, count: count)), marker: "@@pattern@@")
    let request = FuzzRequest.parse(sections[0])
    touch(request)

    _ = ShippedStubs.index.match(request)
    let sample = ShippedStubs.sample
    _ = NearMiss.report(for: request, nearMisses: NearMiss.closest(to: request, in: sample))

    var stubs = Array(sample.nearMissCandidates(for: request, limit: 6))
    for (position, section) in sections.dropFirst().prefix(4).enumerated() {
        guard let json = try? JSONValue.parse(Data(section)) else { continue }
        if let pattern = try? RequestPattern(json: json) {
            check(pattern, against: request)
            stubs.append(
                StubMapping(
                    id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0x80, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(position))),
                    priority: 1 + position % 6, request: pattern))
        }
        if let stub = try? StubMapping(
            json: json, defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: nil))
        {
            check(stub.request, against: request)
            stubs.append(stub)
        }
    }
    for stub in stubs.prefix(6) { check(stub.request, against: request) }
    checkIndex(stubs, request)
    checkJSONBody(request)
    return 0
}

/// Reads every derived property, as the journal and the admin API do.
func touch(_ request: HTTPRequest) {
    _ = request.path
    _ = request.decodedURL
    _ = request.bodyText
    for parameter in request.queryParameters { _ = request.queryValues(parameter.name) }
    _ = request.journalJSON(baseURL: "http://127.0.0.1:8080", receivedAt: Date()).serialized()
    _ = AdminAPI.isAdmin(request)
}

func check(_ pattern: RequestPattern, against request: HTTPRequest) {
    let matches = pattern.matches(request)
    let result = pattern.evaluate(request)
    invariant(
        matches == result.isMatch,
        "matches says \(matches), evaluate says \(result.isMatch) (\(result.differences)) for \(pattern)")
    invariant(
        (0...1).contains(result.distance), "distance \(result.distance) outside 0...1 for \(pattern)")
    invariant(matches == (result.distance == 0), "a match with distance \(result.distance), or a miss with 0")
    for difference in result.differences { _ = difference.description }
}

func checkIndex(_ stubs: [StubMapping], _ request: HTTPRequest) {
    let index = StubIndex(stubs)
    let expected = stubs.indices.filter { stubs[$0].request.matches(request) }
        .min { lhs, rhs in
            stubs[lhs].priority != stubs[rhs].priority ? stubs[lhs].priority < stubs[rhs].priority : lhs > rhs
        }
    let found = index.match(request)?.position
    invariant(
        found == expected,
        "index picks \(String(describing: found)), a scan picks \(String(describing: expected)) for "
            + "\(request.method) \(request.rawURL.debugDescription) among \(stubs.map(\.request))")
}

func checkJSONBody(_ request: HTTPRequest) {
    guard let text = request.bodyText, let document = try? JSONValue.parse(text) else { return }
    let serialized = document.serializedString()
    // Without order, arrays of containers pair item by item, which `equalToJson` stops doing past its
    // budget (JSONComparison.comparisonBudget): a document equals itself below that size.
    for ignoreArrayOrder in largestArrayOfContainers(document) <= 1_000 ? [false, true] : [false] {
        for ignoreExtraElements in [false, true] {
            let pattern = StringValuePattern.equalToJson(
                document, ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements)
            invariant(
                pattern.matches(text) && pattern.matches(serialized),
                "a JSON document does not equal itself (ignoreArrayOrder \(ignoreArrayOrder), "
                    + "ignoreExtraElements \(ignoreExtraElements)): \(text.prefix(200).debugDescription)")
        }
    }
    if let root = try? JSONPath("$") {
        invariant(
            root.evaluate(on: document).count == 1, "$ does not select the document once")
    }
    for expression in request.headers.values(for: "X-Fuzz-JsonPath") {
        guard let path = try? JSONPath(expression) else { continue }
        for value in path.evaluate(on: document) { _ = value.serializedString() }
        if let anything = try? StubRegex(".*") {
            _ = StringValuePattern.matchesJsonPath(path, valuePattern: .matches(anything)).matches(text)
        }
    }
}

/// The most items an array of arrays or objects in the document has.
func largestArrayOfContainers(_ value: JSONValue) -> Int {
    switch value {
    case .array(let items):
        let own =
            items.contains {
                switch $0 {
                case .array, .object: true
                default: false
                }
            } ? items.count : 0
        return items.reduce(own) { max($0, largestArrayOfContainers($1)) }
    case .object(let members): return members.values.reduce(0) { max($0, largestArrayOfContainers($1)) }
    default: return 0
    }
}

/// A runtime stub that matches everything, to carry fuzz-built patterns.
let template: StubMapping? = try? StubMapping(
    json: .object(["request": .object([:])]), defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: nil))

extension StubMapping {
    /// A runtime stub around a fuzz-built pattern.
    init(id: UUID, priority: Int, request: RequestPattern) {
        guard let template else { fatalError("an empty request pattern no longer loads") }
        self = template
        self.id = id
        self.priority = priority
        self.request = request
    }
}
