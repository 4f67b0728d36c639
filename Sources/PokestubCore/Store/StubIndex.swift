import Foundation

/// An immutable set of stubs with the lookup structures that keep matching flat as the set grows.
///
/// Stubs with a literal path (`url`, `urlPath`) are found by one dictionary lookup on the request's path.
/// Pattern stubs (`urlPattern`, `urlPathPattern`, `urlPathTemplate`) are grouped by the literal prefix they
/// start with, cut back to a `/`, and only groups whose prefix the request path has are tried. Stubs with no
/// URL test, or a pattern with no literal prefix, are tried for every request.
///
/// A new index is built for every change and swapped in whole, so a request sees either the old set or the
/// new one, never a mix.
package final class StubIndex: Sendable {
    /// The stubs in the order added: later ones win ties of priority.
    package let stubs: [StubMapping]
    /// The request patterns, apart from the stubs so matching touches nothing else.
    private let patterns: [RequestPattern]
    /// Each regex stub's literal path prefix and method, tested before its pattern (``LiteralPrefixTest``).
    private let prefixTests: [LiteralPrefixTest?]
    /// What each stub answers, with the `Matched-Stub-Id` and `Matched-Stub-Name` headers, built once.
    private let responses: [HTTPResponse]
    /// Each stub's body file, added to its response at serve time.
    private let bodyFiles: [BodyFile?]
    /// Each stub's response template, rendered per request by the engine (`nil` for most stubs).
    private let templates: [ResponseTemplate?]
    private let references: [ServeEvent.StubReference]
    private let scenarioRules: [ScenarioRule?]
    /// Position in the winning order: 0 is tried first (lowest priority number, then added last).
    let rank: [Int]
    private let byLiteralPath: [PathKey: PathGroup]
    private let byPrefix: [String: [Int]]
    /// The lengths in bytes of ``byPrefix``'s keys: a request path is looked up there only at a `/` that ends
    /// a prefix of one of these lengths, so most requests make no key and hash nothing.
    private let prefixLengths: Set<Int>
    private let unindexed: [Int]
    private let byParent: [String: [Int]]
    private let byID: [UUID: Int]

    /// An index with no stubs.
    package static let empty = StubIndex([])

    /// A stub that answers a request, with what to send.
    package struct Match: Sendable {
        /// The stub's id and name, for the journal.
        package var stub: ServeEvent.StubReference
        /// The response, with the `Matched-Stub-Id` header WireMock also sends; a body file's bytes are read
        /// (``BodyFile/response(with:)``) when this is.
        package var response: HTTPResponse { bodyFile?.response(with: unfilledResponse) ?? unfilledResponse }
        /// The response without its body file's bytes.
        var unfilledResponse: HTTPResponse
        /// The body file whose bytes are the response's body, if any (read at serve time).
        var bodyFile: BodyFile?
        /// The stub's position in ``StubIndex/stubs``.
        package var position: Int
        /// The stub's scenario rule: the caller moves the scenario to its new state.
        package var scenario: ScenarioRule?
        /// The upstream the stub was recorded from (``StubMapping/recordedUpstream``), whose links the
        /// response gets pointed at the serving daemon.
        package var recordedUpstream: String?
        /// The stub's response template: the caller renders ``response`` with it for the request.
        package var template: ResponseTemplate?
        /// Where the stub forwards the request (`proxyBaseUrl`), or `nil` for a stub that answers itself.
        package var proxy: StubProxy? = nil
    }

    /// Builds the index.
    package init(_ stubs: [StubMapping]) {
        self.stubs = stubs
        let patterns = stubs.map(\.request)
        self.patterns = patterns
        prefixTests = patterns.map(LiteralPrefixTest.init)
        responses = stubs.map(StubIndex.response(of:))
        templates = stubs.map(\.response.template)
        bodyFiles = stubs.map(StubIndex.bodyFile(of:))
        references = stubs.map(ServeEvent.StubReference.init)
        scenarioRules = stubs.map(\.scenario)
        let order = stubs.indices.sorted { lhs, rhs in
            stubs[lhs].priority != stubs[rhs].priority ? stubs[lhs].priority < stubs[rhs].priority : lhs > rhs
        }
        var rank = [Int](repeating: 0, count: stubs.count)
        for (position, index) in order.enumerated() { rank[index] = position }
        var literalGroups: [String: [Int]] = [:]
        var byPrefix: [String: [Int]] = [:]
        var unindexed: [Int] = []
        var byParent: [String: [Int]] = [:]
        var byID: [UUID: Int] = [:]
        for index in order {
            let stub = stubs[index]
            byID[stub.id] = index
            let place = Placement(stub)
            switch place.group {
            case .literal(let literal): literalGroups[literal, default: []].append(index)
            case .prefix(let prefix): byPrefix[prefix, default: []].append(index)
            case .unindexed: unindexed.append(index)
            }
            if let folder = place.folder { byParent[folder, default: []].append(index) }
        }
        self.rank = rank
        // One list of patterns for every group: mapping the stubs again per group made building quadratic.
        var byLiteralPath = [PathKey: PathGroup](minimumCapacity: literalGroups.count)
        for (path, group) in literalGroups { byLiteralPath[PathKey(path)] = PathGroup(group, patterns: patterns) }
        self.byLiteralPath = byLiteralPath
        self.byPrefix = byPrefix
        prefixLengths = Set(byPrefix.keys.map(\.utf8.count))
        self.unindexed = unindexed
        self.byParent = byParent
        self.byID = byID
    }

    private init(
        stubs: [StubMapping], patterns: [RequestPattern], prefixTests: [LiteralPrefixTest?],
        responses: [HTTPResponse], bodyFiles: [BodyFile?],
        templates: [ResponseTemplate?], references: [ServeEvent.StubReference], scenarioRules: [ScenarioRule?],
        rank: [Int], byLiteralPath: [PathKey: PathGroup], byPrefix: [String: [Int]], unindexed: [Int],
        byParent: [String: [Int]], byID: [UUID: Int]
    ) {
        self.stubs = stubs
        self.patterns = patterns
        self.prefixTests = prefixTests
        self.responses = responses
        self.bodyFiles = bodyFiles
        self.templates = templates
        self.references = references
        self.scenarioRules = scenarioRules
        self.rank = rank
        self.byLiteralPath = byLiteralPath
        self.byPrefix = byPrefix
        prefixLengths = Set(byPrefix.keys.map(\.utf8.count))
        self.unindexed = unindexed
        self.byParent = byParent
        self.byID = byID
    }

    /// This index with `stub` added last, the same index `StubIndex(stubs + [stub])` builds, made from this
    /// one: the new stub's response is prepared and its groups rebuilt, every other stub's work is kept. A
    /// recording or an admin-added stub then costs copying the lists, not preparing every stub again.
    ///
    /// - Precondition: No stub here has `stub`'s id (a replacement changes more than one place; build anew).
    package func adding(_ stub: StubMapping) -> StubIndex {
        precondition(byID[stub.id] == nil, "adding(_:) takes a new id; build a new index to replace a stub")
        let index = stubs.count
        // Added last, it comes before every stub of its priority and after those of a lower number.
        var position = 0
        for existing in stubs where existing.priority < stub.priority { position += 1 }
        var rank = self.rank
        for slot in rank.indices where rank[slot] >= position { rank[slot] += 1 }
        rank.append(position)
        func inserted(into list: [Int]) -> [Int] {
            var list = list
            list.insert(index, at: list.firstIndex { self.rank[$0] >= position } ?? list.count)
            return list
        }
        var patterns = self.patterns
        patterns.append(stub.request)
        var byLiteralPath = self.byLiteralPath
        var byPrefix = self.byPrefix
        var unindexed = self.unindexed
        let place = Placement(stub)
        switch place.group {
        case .literal(let literal):
            let key = PathKey(literal)
            byLiteralPath[key] = PathGroup(inserted(into: byLiteralPath[key]?.all ?? []), patterns: patterns)
        case .prefix(let prefix): byPrefix[prefix] = inserted(into: byPrefix[prefix] ?? [])
        case .unindexed: unindexed = inserted(into: unindexed)
        }
        var byParent = self.byParent
        if let folder = place.folder { byParent[folder] = inserted(into: byParent[folder] ?? []) }
        var byID = self.byID
        byID[stub.id] = index
        return StubIndex(
            stubs: stubs + [stub], patterns: patterns, prefixTests: prefixTests + [LiteralPrefixTest(stub.request)],
            responses: responses + [StubIndex.response(of: stub)],
            bodyFiles: bodyFiles + [StubIndex.bodyFile(of: stub)], templates: templates + [stub.response.template],
            references: references + [ServeEvent.StubReference(stub)], scenarioRules: scenarioRules + [stub.scenario],
            rank: rank, byLiteralPath: byLiteralPath, byPrefix: byPrefix, unindexed: unindexed, byParent: byParent,
            byID: byID)
    }

    /// What a stub answers, with the `Matched-Stub-Id` and `Matched-Stub-Name` headers, its body file apart.
    private static func response(of stub: StubMapping) -> HTTPResponse {
        var response = stub.response.responseWithoutBodyFile
        response.headers.add(name: "Matched-Stub-Id", value: stub.id.lowercasedText)
        if let name = stub.name { response.headers.add(name: "Matched-Stub-Name", value: name) }
        return response
    }

    /// A stub's body file, added to its response at serve time; `nil` for a template that names the body file
    /// and reads it itself, per request.
    private static func bodyFile(of stub: StubMapping) -> BodyFile? {
        stub.response.template?.rendersBodyFile == true ? nil : stub.response.bodyFile
    }

    /// Where a stub is indexed: by its literal path, by the literal prefix of its pattern, or tried for every
    /// request; and the folder it is listed under for near misses (`nil` for a stub with no URL test).
    private struct Placement {
        enum Group {
            case literal(String)
            case prefix(String)
            case unindexed
        }
        let group: Group
        let folder: String?

        init(_ stub: StubMapping) {
            let url = stub.request.url
            let literal = url?.literalPath
            let prefix = literal == nil ? url?.indexPrefix : nil
            if let literal {
                group = .literal(literal)
            } else if let prefix, !prefix.isEmpty {
                group = .prefix(prefix)
            } else {
                group = .unindexed
            }
            // A literal path lives in the folder above it; a pattern in the folder its prefix names.
            folder = url == nil ? nil : literal.map(StubIndex.folder(of:)) ?? prefix ?? ""
        }
    }

    /// The number of stubs.
    package var count: Int { stubs.count }

    /// The stub with this id, if any.
    package func stub(id: UUID) -> StubMapping? {
        byID[id].map { stubs[$0] }
    }

    /// The stub that answers the request: among those that match, the lowest priority number, then the one
    /// added last. `nil` when none matches.
    package func bestMatch(for request: HTTPRequest, scenarios: ScenarioStates? = nil) -> StubMapping? {
        match(request, scenarios: scenarios).map { stubs[$0.position] }
    }

    /// Like ``bestMatch(for:)``, with the response ready to send: the serving hot path.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - scenarios: The scenarios' states; a stub that requires another state is passed over. Without it,
    ///     every scenario counts as ``ScenarioRule/started``.
    package func match(_ request: HTTPRequest, scenarios: ScenarioStates? = nil) -> Match? {
        var best: Int?
        let budget = MatchBudget.current
        var prefixRefusals = 0
        func consider(_ candidates: [Int]) {
            for index in candidates {
                if let best, rank[best] < rank[index] { return }  // lists are in rank order
                if let rule = scenarioRules[index],
                    !(scenarios?.allows(rule) ?? (rule.requiredState ?? ScenarioRule.started == ScenarioRule.started))
                {
                    continue
                }
                // Most pattern stubs tried (the shipped ones are in the prefix group `/api/v2/`) fail by their
                // method or literal prefix; their charges are settled before the next full evaluation.
                if let refused = prefixTests[index]?.refusals(request) {
                    prefixRefusals += refused
                    continue
                }
                LiteralPrefixTest.charge(prefixRefusals, to: budget)
                prefixRefusals = 0
                budget?.candidate = stubs[index].id
                if patterns[index].matches(request) {
                    best = index
                    return
                }
            }
        }
        if let group = byLiteralPath[PathKey(request.normalizedPath)] {
            group.forEachCandidateList(for: request, consider)
        }
        if !byPrefix.isEmpty {
            // The normal form is ASCII: its `/`s are found on the bytes, not by walking Characters.
            var path = request.normalizedPath
            path.withUTF8 { bytes in
                for end in bytes.indices where bytes[end] == UInt8(ascii: "/") && prefixLengths.contains(end + 1) {
                    let prefix = String(decoding: UnsafeBufferPointer(rebasing: bytes[...end]), as: UTF8.self)
                    if let group = byPrefix[prefix] { consider(group) }
                }
            }
        }
        consider(unindexed)
        LiteralPrefixTest.charge(prefixRefusals, to: budget)
        return best.map {
            Match(
                stub: references[$0], unfilledResponse: responses[$0], bodyFile: bodyFiles[$0], position: $0,
                scenario: scenarioRules[$0], recordedUpstream: stubs[$0].recordedUpstream, template: templates[$0],
                proxy: stubs[$0].response.proxy)
        }
    }

    /// The stubs worth comparing with an unmatched request for near misses: those at the request's path, then
    /// those under the deepest folder of the request's path that has any, plus every stub that is not indexed by
    /// path; at most `limit`.
    package func nearMissCandidates(for request: HTTPRequest, limit: Int = 500) -> [StubMapping] {
        // Stubs at the request's own path come first: a list page that differs only in `limit` must not be
        // crowded out of the first `limit` by the thousands of stubs in the same folder.
        var chosen: [Int] = byLiteralPath[PathKey(request.normalizedPath)]?.all ?? []
        var folder = StubIndex.folder(of: request.normalizedPath)
        while true {
            if let group = byParent[folder] { chosen += group }
            if chosen.count >= 3 || folder == "/" || folder.isEmpty { break }
            folder = StubIndex.folder(of: folder)
        }
        chosen += unindexed
        // A URL stub without a literal prefix is both unindexed and in the folder "": list it once.
        var seen = Set<Int>()
        chosen = chosen.filter { seen.insert($0).inserted }
        if chosen.count < 3 { chosen = Array(stubs.indices) }
        return chosen.prefix(limit).map { stubs[$0] }
    }

    /// The folder a path is in: `/a/b/c` and `/a/b/c/` give `/a/b/`; `/` is its own folder; a path without
    /// a `/` gives ``.
    static func folder(of path: String) -> String {
        if path == "/" { return "/" }
        // An ASCII path is cut by its bytes: walking back by characters cost about 6,000 instructions a path,
        // 3% of a start with the shipped stubs. Any other path by its characters, as a `/` may begin one.
        var bytes = path.utf8[...]
        if bytes.allSatisfy({ $0 < 0x80 }) {
            if bytes.last == UInt8(ascii: "/") { bytes = bytes.dropLast() }
            guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
            return String(path[...slash])
        }
        let trimmed = path.hasSuffix("/") ? path.dropLast() : Substring(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return String(trimmed[...slash])
    }
}

/// The stubs for one literal path. When many of them tell requests apart by one query parameter's exact
/// value (list pages by `offset`), they are also grouped by that value, so a lookup tries only the stubs
/// that can match instead of all of them.
struct PathGroup: Sendable {
    /// Every stub at the path, in rank order.
    let all: [Int]
    /// The query parameter the stubs are grouped by, if any.
    let parameter: String?
    /// Stubs that pass only for listed values, by value (rank order).
    let byValue: [String: [Int]]
    /// Stubs that pass when the parameter is absent (rank order).
    let whenAbsent: [Int]
    /// Stubs that test the parameter some other way or not at all (rank order).
    let others: [Int]

    /// Groups worth it only from this many stubs on.
    static let minimumSize = 8

    init(_ indices: [Int], patterns: [RequestPattern]) {
        all = indices
        var best: (name: String, count: Int)?
        if indices.count >= PathGroup.minimumSize {
            // The parameter that tells most stubs apart: tested with exact values by at least half of them,
            // and with the most distinct values (`offset` tells pages apart; `limit` is 20 on all of them).
            var values: [String: Set<String>] = [:]
            var counts: [String: Int] = [:]
            for index in indices {
                for (name, pattern) in patterns[index].queryParameters {
                    guard let discrete = PathGroup.discrete(pattern) else { continue }
                    counts[name, default: 0] += 1
                    values[name, default: []].formUnion(discrete.values)
                }
            }
            let eligible = counts.filter { $0.value * 2 >= indices.count }.keys
            if let top = eligible.max(by: { lhs, rhs in
                let (left, right) = (values[lhs]?.count ?? 0, values[rhs]?.count ?? 0)
                return left != right ? left < right : lhs > rhs
            }), (values[top]?.count ?? 0) > 1 {
                best = (top, values[top]?.count ?? 0)
            }
        }
        guard let name = best?.name else {
            parameter = nil
            byValue = [:]
            whenAbsent = []
            others = indices
            return
        }
        var byValue: [String: [Int]] = [:]
        var whenAbsent: [Int] = []
        var others: [Int] = []
        for index in indices {
            guard let pattern = patterns[index].queryParameters[name], let discrete = PathGroup.discrete(pattern) else {
                others.append(index)
                continue
            }
            for value in discrete.values { byValue[value, default: []].append(index) }
            if discrete.absent { whenAbsent.append(index) }
        }
        parameter = name
        self.byValue = byValue
        self.whenAbsent = whenAbsent
        self.others = others
    }

    /// Calls `consider` with each list of stubs that may match the request.
    func forEachCandidateList(for request: HTTPRequest, _ consider: ([Int]) -> Void) {
        guard let parameter else {
            consider(all)
            return
        }
        consider(others)
        var present = false
        for query in request.queryParameters where query.name == parameter {
            present = true
            if let candidates = byValue[query.value] { consider(candidates) }
        }
        if !present { consider(whenAbsent) }
    }

    /// Values one of which a request must have for the pattern to pass, and whether it passes an absent value;
    /// `nil` when it passes other values too.
    ///
    /// A multi-value pattern with a case-sensitive `equalTo` passes only requests that have that value, so it is
    /// filed under the first such text alone (each stub in one list, considered once per request).
    static func discrete(_ pattern: MultiValuePattern) -> (values: [String], absent: Bool)? {
        switch pattern {
        case .single(let pattern):
            return discrete(pattern)
        case .hasExactly(let patterns), .includes(let patterns):
            for case .equalTo(let text, caseInsensitive: false) in patterns { return ([text], false) }
            return nil
        }
    }

    /// The exact values a string value pattern passes, and whether it passes an absent value; `nil` when it
    /// passes other values too.
    static func discrete(_ pattern: StringValuePattern) -> (values: [String], absent: Bool)? {
        switch pattern {
        case .equalTo(let value, caseInsensitive: false): return ([value], false)
        case .absent(true): return ([], true)
        case .or(let alternatives):
            var values: [String] = []
            var absent = false
            for alternative in alternatives {
                guard let discrete = discrete(alternative) else { return nil }
                values += discrete.values
                absent = absent || discrete.absent
            }
            return (values, absent)
        default: return nil
        }
    }
}
