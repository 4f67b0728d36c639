import Foundation
import PokestubCore
import Testing

@Suite("Recording file names")
struct RecordingFileNameTests {
    private func name(_ target: String, method: String = "GET", body: String = "") -> RecordingFileName {
        RecordingFileName(
            key: RecordingKey(
                HTTPRequest(method: method, rawURL: target, body: Data(body.utf8)), options: RecordingOptions()))
    }

    @Test("a PokeAPI path becomes folders and the method names the file")
    func readableNames() {
        #expect(name("/api/v2/pokemon/1/").mappingPath == "mappings/api/v2/pokemon/1/GET.json")
        #expect(name("/api/v2/pokemon/1/encounters").mappingPath == "mappings/api/v2/pokemon/1/encounters.GET.json")
        #expect(name("/").mappingPath == "mappings/GET.json")
        #expect(name("/api/v2/pokemon/1/").bodyFileName(extension: "json") == "api/v2/pokemon/1/GET.json")
    }

    @Test("the same request always gives the same name, whatever the query order")
    func deterministic() {
        let first = name("/api/v2/pokemon/?offset=20&limit=20")
        #expect(first == name("/api/v2/pokemon/?limit=20&offset=20"))
        #expect(first.stem.hasPrefix("api/v2/pokemon/GET-q"))
        #expect(first != name("/api/v2/pokemon/?offset=40&limit=20"))
        #expect(first != name("/api/v2/pokemon/"))
        #expect(name("/api/v2/pokemon/%31/") == name("/api/v2/pokemon/1/"))
    }

    @Test("bodies and methods make different files")
    func bodiesAndMethods() {
        let post = name("/api/v2/team", method: "POST", body: #"{"a": 1, "b": 2}"#)
        #expect(post.stem.hasPrefix("api/v2/team.POST-b"))
        #expect(
            post == name("/api/v2/team", method: "POST", body: #"{"b":2,"a":1}"#), "JSON bodies compare canonically")
        #expect(post != name("/api/v2/team", method: "POST", body: #"{"a": 1}"#))
        #expect(name("/api/v2/team", method: "PUT").stem == "api/v2/team.PUT")
        #expect(name("/x", method: "get").stem == "x.%67%65%74", "a lower-case method cannot collide with GET")
    }

    @Test("names never escape the folder or carry control characters")
    func safeNames() {
        for target in [
            "/../../etc/passwd", "/a/./b/", "/%2e%2e/%2E%2E/x", "/..%2F..%2Fx", "/a%00b/c%0Ad", "/.hidden/x",
        ] {
            let stem = name(target).stem
            let parts = stem.split(separator: "/", omittingEmptySubsequences: false)
            #expect(
                !parts.contains { $0 == ".." || $0 == "." || $0.isEmpty || $0.hasPrefix(".") }, "\(target) → \(stem)")
            #expect(!stem.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(target) → \(stem)")
            #expect(!stem.contains("\\") && !stem.contains(":"), "\(target) → \(stem)")
        }
    }

    @Test("non-ASCII is percent-encoded, so case-insensitive and normalizing file systems cannot merge names")
    func nonASCIIAndCase() {
        #expect(
            name("/api/v2/pokemon-species/flab%C3%A9b%C3%A9/").stem == "api/v2/pokemon-species/flab%C3%A9b%C3%A9/GET")
        #expect(name("/api/v2/pokemon-species/flabébé/").stem == "api/v2/pokemon-species/flab%C3%A9b%C3%A9/GET")
        let upper = name("/Pokemon/").stem
        let lower = name("/pokemon/").stem
        #expect(upper.lowercased() != lower.lowercased(), "\(upper) vs \(lower)")
        #expect(name("/api/con/nul.json").stem == "api/%63on/%6Eul.json.GET")
    }

    @Test("long and deep paths stay bounded and distinct")
    func bounded() {
        let long = String(repeating: "a", count: 400)
        let first = name("/x/\(long)1/")
        let second = name("/x/\(long)2/")
        #expect(first != second)
        #expect(first.stem.split(separator: "/").allSatisfy { $0.utf8.count <= 64 }, "\(first.stem)")
        let flabebe = String(repeating: "%C3%A9", count: 80)
        let encoded = name("/\(flabebe)/").stem
        #expect(encoded.split(separator: "/").allSatisfy { $0.utf8.count <= 64 })
        let deep = "/" + (1...40).map { "d\($0)" }.joined(separator: "/") + "/"
        #expect(name(deep).stem.split(separator: "/").count <= 13)
        #expect(name(deep) != name(deep + "e/"))
    }

    @Test("secret query values do not split recordings or reach the name")
    func redactedQuery() {
        let first = name("/api?api_key=one&q=1")
        #expect(first == name("/api?q=1&api_key=two"))
        #expect(first != name("/api?q=2&api_key=one"))
    }
}
