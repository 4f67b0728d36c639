import Foundation
import FuzzSupport

@testable import PokestubCore

// Fuzz target: the stub loader on arbitrary bytes, as if they were a file under `stubs/mappings/`.
//
// Besides never trapping, a load must keep these promises:
// - a problem names a line that exists in the file;
// - a stub's definition (what `GET /__admin/mappings/{id}` shows) serialises to JSON that loads again as the
//   same stub (what a client sends back with `PUT`);
// - a request pattern's own JSON form loads again;
// - the stubs make an index, and each stub that has a literal URL is found for a request to that URL
//   unless another stub outranks it.

/// Body files come from the shipped stub root; `bodyFileName` values the fuzzer writes are looked up there.
let bodyFiles = BodyFileStore(
    root: URL(fileURLWithPath: ShippedStubs.root).appendingPathComponent("__files"))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStubLoader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    switch StubLoader.parse(
        data, source: "mappings/fuzz.json", displayPath: "stubs/mappings/fuzz.json", bodyFiles: bodyFiles)
    {
    case .failure(let failure):
        invariant(!failure.problems.isEmpty, "a failure without a problem")
        let lines = data.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        for problem in failure.problems {
            invariant(!problem.message.isEmpty, "a problem without a message")
            if let line = problem.line {
                invariant((1...lines).contains(line), "problem on line \(line) of a \(lines)-line file: \(problem)")
            }
        }
    case .success(let loaded):
        for warning in loaded.warnings { invariant(!warning.message.isEmpty, "a warning without a message") }
        for stub in loaded.stubs { checkRoundTrip(stub) }
        checkIndex(loaded.stubs)
    }
    return 0
}

func checkRoundTrip(_ stub: StubMapping) {
    let shown = stub.definition.serialized()
    let reparsed: JSONValue
    do { reparsed = try JSONValue.parse(shown) } catch {
        invariant(false, "definition serialises to invalid JSON (\(error)): \(String(decoding: shown, as: UTF8.self))")
        return
    }
    do {
        let again = try StubMapping(json: reparsed, defaultID: UUID(), source: .runtime, bodyFiles: bodyFiles)
        invariant(again.id == stub.id, "id changes through the admin API: \(stub.id) became \(again.id)")
        invariant(again.priority == stub.priority, "priority changes through the admin API")
        invariant(
            again.request.json.serializedString() == stub.request.json.serializedString(),
            "request pattern changes through the admin API: \(stub.request) became \(again.request)")
        invariant(again.response.status == stub.response.status, "status changes through the admin API")
        invariant(
            sameBody(again.response.body.data, stub.response.body.data),
            "body changes through the admin API: \(stub.response.body.data.debugDescription) became "
                + again.response.body.data.debugDescription)
    } catch {
        invariant(false, "definition no longer loads (\(error)): \(String(decoding: shown, as: UTF8.self))")
    }
    do { _ = try RequestPattern(json: stub.request.json) } catch {
        invariant(false, "request pattern JSON does not load again (\(error)): \(stub.request.json.serializedString())")
    }
}

/// Bodies are the same bytes, or JSON documents equal as JSON (`-0` may come back as `0`, `1.0` as `1`).
func sameBody(_ lhs: Data, _ rhs: Data) -> Bool {
    if lhs == rhs { return true }
    guard let left = try? JSONValue.parse(lhs), let text = String(data: rhs, encoding: .utf8) else { return false }
    return StringValuePattern.equalToJson(left, ignoreArrayOrder: false, ignoreExtraElements: false).matches(text)
}

func checkIndex(_ stubs: [StubMapping]) {
    let index = StubIndex(stubs)
    invariant(index.count == stubs.count, "index lost stubs")
    for stub in stubs {
        guard case .urlPath(let path)? = stub.request.url else { continue }
        let request = HTTPRequest(method: stub.request.method ?? "GET", rawURL: path)
        // The index and a plain scan must agree on the winner (lowest priority number, then added last).
        let expected = stubs.indices.filter { stubs[$0].request.matches(request) }
            .min { lhs, rhs in
                stubs[lhs].priority != stubs[rhs].priority ? stubs[lhs].priority < stubs[rhs].priority : lhs > rhs
            }
        invariant(
            index.match(request)?.position == expected,
            "index picks \(String(describing: index.match(request)?.position)), a scan picks \(String(describing: expected)) for \(path.debugDescription)"
        )
    }
}
