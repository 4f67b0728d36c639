import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("StubStore: reloads and runtime changes")
struct StubStoreTests {
    private func mapping(_ path: String, body: String) -> String {
        #"{"request": {"method": "GET", "urlPath": "\#(path)"}, "response": {"body": "\#(body)"}}"#
    }

    private func body(_ store: StubStore, _ url: String) -> String? {
        store.index.bestMatch(for: Fixtures.request(url))?.response.body.text
    }

    @Test("a store without a root serves runtime stubs only")
    func withoutRoot() throws {
        let store = StubStore(root: nil)
        #expect(store.lastReload == nil)
        let report = store.reload()
        #expect(report.succeeded)
        #expect(store.index.count == 0)
        store.add(try Fixtures.getStub(urlPath: "/a/", name: "a"))
        #expect(body(store, "/a/") == "a")
    }

    @Test("strict: a reload with any broken file keeps every previous stub and reports the problems")
    func brokenReloadKeepsPrevious() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(mapping("/a/", body: "a version 1"), to: "mappings/a.json")
            try directory.write(mapping("/b/", body: "b version 1"), to: "mappings/b.json")
            let store = StubStore(root: directory.path, strict: true)
            let first = store.reload()
            #expect(first.succeeded)
            #expect(first.stubCount == 2)
            #expect(first.problems.isEmpty)

            try directory.write(mapping("/a/", body: "a version 2"), to: "mappings/a.json")
            try directory.write(
                #"{"request": {"urlPath": "/b/"}, "response": {"status": 9000}}"#, to: "mappings/b.json")
            try directory.write(mapping("/c/", body: "c version 1"), to: "mappings/c.json")
            let broken = store.reload()
            #expect(!broken.succeeded)
            #expect(broken.stubCount == 0)
            #expect(broken.problems.count == 1)
            #expect(broken.problems.first?.path.hasSuffix("mappings/b.json") == true)
            #expect(broken.problems.first?.message.contains("response.status") == true)
            #expect(store.lastReload?.succeeded == false)
            // Never a mix: a's new version and the new c are not served either.
            #expect(body(store, "/a/") == "a version 1")
            #expect(body(store, "/b/") == "b version 1")
            #expect(body(store, "/c/") == nil)
            #expect(store.index.count == 2)

            try directory.write(mapping("/b/", body: "b version 2"), to: "mappings/b.json")
            let fixed = store.reload()
            #expect(fixed.succeeded)
            #expect(fixed.stubCount == 3)
            #expect(body(store, "/a/") == "a version 2")
            #expect(body(store, "/b/") == "b version 2")
            #expect(body(store, "/c/") == "c version 1")
        }
    }

    @Test("runtime stubs are added, replaced by id and removed")
    func runtimeChanges() throws {
        let store = StubStore(root: nil)
        let id = UUID()
        let first = try Fixtures.stub(#"{"request": {"urlPath": "/a/"}, "response": {"body": "one"}}"#, id: id)
        let replacement = try Fixtures.stub(#"{"request": {"urlPath": "/a/"}, "response": {"body": "two"}}"#, id: id)
        store.add(first)
        #expect(body(store, "/a/") == "one")
        store.add(replacement)
        #expect(store.index.count == 1)
        #expect(body(store, "/a/") == "two")
        #expect(store.remove(id: id))
        #expect(body(store, "/a/") == nil)
        #expect(!store.remove(id: id))
        #expect(!store.remove(id: UUID()))
    }

    @Test("a runtime stub added later wins over a file stub of the same priority")
    func runtimeWinsTies() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(mapping("/a/", body: "file"), to: "mappings/a.json")
            let store = StubStore(root: directory.path)
            store.reload()
            store.add(try Fixtures.stub(#"{"request": {"urlPath": "/a/"}, "response": {"body": "runtime"}}"#))
            #expect(body(store, "/a/") == "runtime")
            // A reload of the files keeps the runtime stubs on top.
            store.reload()
            #expect(body(store, "/a/") == "runtime")
        }
    }

    @Test("removing a file stub hides it until resetToFiles()")
    func removeFileStub() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(mapping("/a/", body: "file a"), to: "mappings/a.json")
            try directory.write(mapping("/b/", body: "file b"), to: "mappings/b.json")
            let store = StubStore(root: directory.path)
            store.reload()
            let fileStub = try #require(store.index.bestMatch(for: Fixtures.request("/a/")))
            #expect(store.remove(id: fileStub.id))
            #expect(body(store, "/a/") == nil)
            #expect(!store.remove(id: fileStub.id))
            store.reload()
            #expect(body(store, "/a/") == nil, "a reload does not bring back a removed file stub")
            store.add(try Fixtures.getStub(urlPath: "/r/", name: "runtime"))
            let report = store.resetToFiles()
            #expect(report.succeeded)
            #expect(body(store, "/a/") == "file a")
            #expect(body(store, "/b/") == "file b")
            #expect(body(store, "/r/") == nil, "reset drops runtime stubs")
        }
    }

    @Test("replacing a file stub by id hides the file version until resetToFiles()")
    func replaceFileStub() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(mapping("/a/", body: "file"), to: "mappings/a.json")
            let store = StubStore(root: directory.path)
            store.reload()
            let id = try #require(store.index.stubs.first).id
            store.add(try Fixtures.stub(#"{"request": {"urlPath": "/a/"}, "response": {"body": "edited"}}"#, id: id))
            #expect(store.index.count == 1)
            #expect(body(store, "/a/") == "edited")
            store.resetToFiles()
            #expect(body(store, "/a/") == "file")
        }
    }

    @Test("removeAll removes file and runtime stubs until resetToFiles()")
    func removeAll() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(mapping("/a/", body: "file"), to: "mappings/a.json")
            let store = StubStore(root: directory.path)
            store.reload()
            store.add(try Fixtures.getStub(urlPath: "/r/", name: "runtime"))
            #expect(store.index.count == 2)
            store.removeAll()
            #expect(store.index.count == 0)
            store.add(try Fixtures.getStub(urlPath: "/new/", name: "new"))
            #expect(store.index.count == 1)
            #expect(body(store, "/new/") == "new")
            store.resetToFiles()
            #expect(store.index.count == 1)
            #expect(body(store, "/a/") == "file")
        }
    }

    @Test("strict: a reset that finds broken files keeps serving the previous file stubs")
    func brokenReset() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(mapping("/a/", body: "file"), to: "mappings/a.json")
            let store = StubStore(root: directory.path, strict: true)
            store.reload()
            try directory.write("{ broken", to: "mappings/a.json")
            let report = store.resetToFiles()
            #expect(!report.succeeded)
            #expect(report.problems.first?.line == 1)
            #expect(body(store, "/a/") == "file")
        }
    }
}
