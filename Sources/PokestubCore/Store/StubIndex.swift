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
public final class StubIndex: Sendable {
    /// The stubs in the order added: later ones win ties of priority.
    public let stubs: [StubMapping]
    /// Position in the winning order: 0 is tried first (lowest priority number, then added last).
    private let rank: [Int]
    private let byLiteralPath: [String: [Int]]
    private let byPrefix: [String: [Int]]
    private let unindexed: [Int]
    private let byParent: [String: [Int]]
    private let byID: [UUID: Int]

    /// An index with no stubs.
    public static let empty = StubIndex([])

    /// Builds the index.
    public init(_ stubs: [StubMapping]) {
        self.stubs = stubs
        let order = stubs.indices.sorted { lhs, rhs in
            stubs[lhs].priority != stubs[rhs].priority ? stubs[lhs].priority < stubs[rhs].priority : lhs > rhs
        }
        var rank = [Int](repeating: 0, count: stubs.count)
        for (position, index) in order.enumerated() { rank[index] = position }
        var byLiteralPath: [String: [Int]] = [:]
        var byPrefix: [String: [Int]] = [:]
        var unindexed: [Int] = []
        var byParent: [String: [Int]] = [:]
        var byID: [UUID: Int] = [:]
        for index in order {
            let stub = stubs[index]
            byID[stub.id] = index
            if let literal = stub.request.url?.literalPath {
                byLiteralPath[literal, default: []].append(index)
            } else if let url = stub.request.url, !url.indexPrefix.isEmpty {
                byPrefix[url.indexPrefix, default: []].append(index)
            } else {
                unindexed.append(index)
            }
            if let url = stub.request.url {
                // A literal path lives in the folder above it; a pattern in the folder its prefix names.
                let folder = url.literalPath.map(StubIndex.folder(of:)) ?? url.indexPrefix
                byParent[folder, default: []].append(index)
            }
        }
        self.rank = rank
        self.byLiteralPath = byLiteralPath
        self.byPrefix = byPrefix
        self.unindexed = unindexed
        self.byParent = byParent
        self.byID = byID
    }

    /// The number of stubs.
    public var count: Int { stubs.count }

    /// The stub with this id, if any.
    public func stub(id: UUID) -> StubMapping? {
        byID[id].map { stubs[$0] }
    }

    /// The stub that answers the request: among those that match, the lowest priority number, then the one
    /// added last. `nil` when none matches.
    public func bestMatch(for request: HTTPRequest) -> StubMapping? {
        var best: Int?
        func consider(_ candidates: [Int]) {
            for index in candidates {
                if let best, rank[best] < rank[index] { return }  // lists are in rank order
                if stubs[index].request.matches(request) {
                    best = index
                    return
                }
            }
        }
        if let literal = byLiteralPath[request.path] { consider(literal) }
        if !byPrefix.isEmpty {
            let path = request.path
            var position = path.startIndex
            while let slash = path[position...].firstIndex(of: "/") {
                let next = path.index(after: slash)
                if let group = byPrefix[String(path[..<next])] { consider(group) }
                position = next
            }
        }
        consider(unindexed)
        return best.map { stubs[$0] }
    }

    /// The stubs worth comparing with an unmatched request for near misses: those under the deepest folder of
    /// the request's path that has any, plus every stub that is not indexed by path; at most `limit`.
    public func nearMissCandidates(for request: HTTPRequest, limit: Int = 500) -> [StubMapping] {
        var chosen: [Int] = []
        var folder = StubIndex.folder(of: request.path)
        while true {
            if let group = byParent[folder] { chosen += group }
            if chosen.count >= 3 || folder == "/" || folder.isEmpty { break }
            folder = StubIndex.folder(of: folder)
        }
        chosen += unindexed
        if chosen.count < 3 { chosen = Array(stubs.indices) }
        return chosen.prefix(limit).map { stubs[$0] }
    }

    /// The folder a path is in: `/a/b/c` and `/a/b/c/` give `/a/b/`; `/` gives ``.
    private static func folder(of path: String) -> String {
        let trimmed = path.hasSuffix("/") ? path.dropLast() : Substring(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return String(trimmed[...slash])
    }
}
