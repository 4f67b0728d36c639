import Foundation
import Testing

@testable import PokestubCore

@Suite("StubIndex.adding: one stub added to an index answers as the index built anew")
struct StubIndexAddingTests {
    /// A stub of one of the kinds the index files apart: a literal path (some with an `offset` query, so a
    /// path gathers the eight or more stubs that make a query group), a path pattern with a literal prefix,
    /// a pattern with none, and no URL test at all; with one of three priorities.
    private static func randomStub(_ number: Int, using generator: inout SplitMix) throws -> StubMapping {
        let priority = 1 + generator.next(3)
        let path = ["/api/v2/pokemon/", "/api/v2/pokemon/1/", "/api/v2/type/"][generator.next(3)]
        let request: String
        switch generator.next(6) {
        case 0, 1:
            request = #"{"method": "GET", "urlPath": "\#(path)"}"#
        case 2, 3:
            let offset = generator.next(4) * 20
            request =
                #"{"method": "GET", "urlPath": "\#(path)", "queryParameters": {"offset": {"equalTo": "\#(offset)"}}}"#
        case 4:
            request = #"{"method": "GET", "urlPathPattern": "/api/v2/pokemon/[0-9]+/"}"#
        default:
            request = generator.next(2) == 0 ? #"{"method": "ANY"}"# : #"{"urlPathPattern": ".*/type/"}"#
        }
        return try Fixtures.stub(
            #"{"name": "s\#(number)", "priority": \#(priority), "request": \#(request), "response": {"body": "\#(number)"}}"#
        )
    }

    @Test("120 random sequences of up to 60 stubs: every request finds the same stub and the same near misses")
    func sameAsBuiltAnew() throws {
        var generator = SplitMix(seed: 0x5EED)
        let requests = [
            "/api/v2/pokemon/", "/api/v2/pokemon/?offset=20", "/api/v2/pokemon/?offset=40&limit=20",
            "/api/v2/pokemon/1/", "/api/v2/pokemon/7/", "/api/v2/type/", "/api/v2/type/?offset=0", "/elsewhere",
        ].map { Fixtures.request($0) }
        for _ in 0..<120 {
            var stubs: [StubMapping] = []
            var grown = StubIndex.empty
            for number in 0..<(1 + generator.next(60)) {
                let stub = try Self.randomStub(number, using: &generator)
                stubs.append(stub)
                grown = grown.adding(stub)
            }
            let built = StubIndex(stubs)
            #expect(grown.stubs.map(\.id) == built.stubs.map(\.id))
            #expect(grown.rank == built.rank, "the winning order of \(stubs.map(\.name))")
            for request in requests {
                let (a, b) = (grown.match(request), built.match(request))
                #expect(a?.position == b?.position, "\(request.rawURL) of \(stubs.map(\.name))")
                #expect(a?.response.headers == b?.response.headers)
                #expect(
                    grown.nearMissCandidates(for: request).map(\.id) == built.nearMissCandidates(for: request).map(\.id)
                )
            }
        }
    }

    @Test("a stub store adds a new stub by growing its index, and a replacement still replaces")
    func storeAddsAndReplaces() throws {
        let store = StubStore(root: nil)
        let first = try Fixtures.stub(#"{"request": {"urlPath": "/a"}, "response": {"body": "one"}}"#)
        store.add(first)
        store.add(try Fixtures.getStub(urlPath: "/b"))
        #expect(store.index.count == 2)
        let replacement = try Fixtures.stub(
            #"{"request": {"urlPath": "/a"}, "response": {"body": "two"}}"#, id: first.id)
        store.add(replacement)
        #expect(store.index.count == 2)
        #expect(store.index.bestMatch(for: Fixtures.request("/a"))?.response.body.data == Data("two".utf8))
    }
}
