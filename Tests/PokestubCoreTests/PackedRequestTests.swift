import Foundation
import Testing

@testable import PokestubCore

@Suite("The journal's packed request gives back the request it packed")
struct PackedRequestTests {
    @Test("method, target, peer, repeated and empty header fields, non-ASCII text and the body come back equal")
    func roundTrip() {
        let request = HTTPRequest(
            method: "PATCH", rawURL: "/api/v2/pokémon/%C3%A9?limit=20&name=mr+mime&flag",
            headers: HTTPHeaders([
                (name: "Host", value: "127.0.0.1:8080"), (name: "X-Empty", value: ""),
                (name: "Cookie", value: "a=1"), (name: "cookie", value: "b=2"), (name: "X-Text", value: "Évoli ✓"),
            ]),
            body: Data([0, 255, 10, 13]), clientAddress: "::1")
        let unpacked = PackedRequest(request).request
        #expect(unpacked == request)
        #expect(unpacked.headers.values(for: "cookie") == ["a=1", "b=2"])
        #expect(unpacked.queryValues("name") == ["mr mime"])
        #expect(unpacked.normalizedPath == request.normalizedPath)
    }

    @Test("a request without a peer address or header fields comes back without them")
    func noPeerNoHeaders() {
        let request = HTTPRequest(method: "GET", rawURL: "/")
        let unpacked = PackedRequest(request).request
        #expect(unpacked == request)
        #expect(unpacked.clientAddress == nil)
        #expect(unpacked.headers.fields.isEmpty)
    }

    @Test("the journal lists what it was given, its bytes counted once")
    func journalListsPacked() {
        let journal = RequestJournal(capacity: 2)
        for index in 0..<3 {
            journal.append(
                ServeEvent(
                    receivedAt: Date(), request: HTTPRequest(method: "GET", rawURL: "/item/\(index)?x=\(index)"),
                    stub: nil, responseStatus: 404, durationMilliseconds: 1))
        }
        #expect(journal.events.map(\.request.rawURL) == ["/item/1?x=1", "/item/2?x=2"])
        #expect(journal.events.map { $0.request.queryValues("x") } == [["1"], ["2"]])
    }
}
