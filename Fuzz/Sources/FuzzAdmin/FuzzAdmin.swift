import Foundation
import FuzzSupport
@testable import PokestubCore

// Fuzz target: the admin API on hostile requests, over an in-memory stub store and journal.
//
// Input: requests in the ``FuzzRequest`` format separated by lines `@@next@@`, handled in order by a fresh
// store and journal, so one input can add a stub, list it, find requests and delete it:
//
// ```
// POST /__admin/mappings
//
// {"request": {"urlPath": "/x"}, "response": {"status": 201}}
// @@next@@
// GET /x
// @@next@@
// POST /__admin/requests/count
//
// {"urlPath": "/x"}
// ```
//
// A request outside `/__admin` is served from the store and journaled, as the engine does. Checks, besides
// never trapping or hanging: every admin answer is JSON with a status below 500; every refusal has WireMock's
// `{"errors": [{"title", "detail"}]}` shape; the journal never holds more than its capacity.

let journalCapacity = 16

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdmin(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let store = StubStore(root: nil)
    store.reload()
    let journal = RequestJournal(capacity: journalCapacity)
    let admin = AdminAPI(store: store, journal: journal, info: ServerInfo(mode: .replay))
    let sections = FuzzRequest.sections(Array(UnsafeBufferPointer(start: start, count: count)), marker: "@@next@@")
    for section in sections.prefix(8) {
        let request = FuzzRequest.parse(section)
        if AdminAPI.isAdmin(request) {
            check(admin.handle(request), for: request)
        } else {
            serve(request, store: store, journal: journal)
        }
        invariant(journal.count <= journalCapacity, "journal holds \(journal.count) of \(journalCapacity)")
    }
    return 0
}

func check(_ response: HTTPResponse, for request: HTTPRequest) {
    let body = response.body.data
    invariant(
        (200..<500).contains(response.status),
        "\(request.method) \(request.rawURL.debugDescription) answered \(response.status)")
    let json: JSONValue
    do { json = try JSONValue.parse(body) } catch {
        invariant(false, "admin answer is not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))")
        return
    }
    if response.status >= 400 {
        guard case .array(let errors)? = json["errors"], let first = errors.first,
            case .string? = first["title"], case .string? = first["detail"]
        else {
            invariant(false, "refusal without errors[].title/detail: \(json.serializedString())")
            return
        }
    }
}

func serve(_ request: HTTPRequest, store: StubStore, journal: RequestJournal) {
    let index = store.index
    let match = index.match(request)
    let status: Int
    if let match {
        status = match.response.status
    } else {
        _ = NearMiss.report(for: request, nearMisses: NearMiss.closest(to: request, in: index))
        status = 404
    }
    journal.append(
        ServeEvent(
            id: journal.nextEventID(), receivedAt: Date(), request: request, stub: match?.stub, responseStatus: status,
            durationMilliseconds: 0.1))
}
