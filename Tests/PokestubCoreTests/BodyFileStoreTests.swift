import Foundation
import PokestubLocking
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("bodyFileName: bodies from __files")
struct BodyFileStoreTests {
    private static let allBytes = Data((0...255).map { UInt8($0) })

    private func stubJSON(_ bodyFileName: String) -> String {
        #"{"request": {"urlPath": "/a/"}, "response": {"bodyFileName": "\#(bodyFileName)"}}"#
    }

    @Test("serves a binary body byte for byte")
    func binaryBody() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(Self.allBytes, to: "__files/sprites/all-bytes.bin")
            try directory.write(stubJSON("sprites/all-bytes.bin"), to: "mappings/sprite.json")
            let result = StubLoader(root: directory.path).load()
            #expect(result.problems.isEmpty)
            let stub = try #require(result.stubs.first)
            #expect(stub.response.body.count == 256)
            #expect(stub.response.body.data == Self.allBytes)
            #expect(stub.response.bodyFileName == "sprites/all-bytes.bin")
            #expect(stub.response.httpResponse.body.data == Self.allBytes)
        }
    }

    @Test("a file named by many stubs is read once and its bytes shared")
    func sharedFile() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(#"{"count": 1}"#, to: "__files/shared.json")
            for number in 1...3 {
                try directory.write(stubJSON("shared.json"), to: "mappings/\(number).json")
            }
            let result = StubLoader(root: directory.path).load()
            #expect(result.problems.isEmpty)
            #expect(result.stubs.count == 3)
            let bodies = result.stubs.map(\.response.body)
            #expect(bodies.allSatisfy { $0 === bodies[0] })
            #expect(bodies[0].text == #"{"count": 1}"#)
        }
    }

    @Test("a body file replaced by a named pipe after the check is refused at once, not waited on")
    func namedPipe() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("first", to: "__files/a.txt")
        let store = BodyFileStore(root: directory.url.appendingPathComponent("__files"))
        let file = try store.bodyFile(named: "a.txt")
        let path = directory.url.appendingPathComponent("__files/a.txt").path
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        let outcome = Locked<String?>(nil)
        // Blocking in open(2) is the failure: the read runs on a thread of its own, watched with a deadline.
        let reader = Thread {
            do {
                _ = try file.load()
                outcome.withLock { $0 = "read" }
            } catch {
                outcome.withLock { $0 = (error as? StubDefinitionError)?.message ?? "\(error)" }
            }
        }
        reader.start()
        do {
            try await eventually("the load returned", timeout: .seconds(5)) { outcome.withLock { $0 } != nil }
        } catch {
            // Unblock the reader so the test process does not keep a thread stuck in open(2).
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            throw error
        }
        #expect(outcome.withLock { $0 } == "cannot read body file __files/a.txt: not a regular file")
    }

    @Test("a body file is read at its first use and kept, unchanged, after that")
    func readAtFirstUse() throws {
        try TemporaryDirectory.with { directory in
            try directory.write("first", to: "__files/a.txt")
            let store = BodyFileStore(root: directory.url.appendingPathComponent("__files"))
            let file = try store.bodyFile(named: "a.txt")
            #expect(!file.isLoaded)
            try directory.write("second", to: "__files/a.txt")
            let body = try file.load()
            #expect(body.text == "second")
            try directory.write("third", to: "__files/a.txt")
            #expect(try file.load() === body)
            #expect(try store.bodyFile(named: "a.txt") === file)
        }
    }

    @Test("a body file swapped for a symbolic link out of __files after the load is refused when first read")
    func swappedForSymlink() throws {
        try TemporaryDirectory.with { directory in
            let secret = try directory.write("secret", to: "outside/secret.txt")
            try directory.write("harmless", to: "__files/x.txt")
            try directory.write("inside", to: "__files/real/inside.txt")
            try directory.write(stubJSON("x.txt"), to: "mappings/x.json")
            let store = StubStore(root: directory.path)
            #expect(store.reload().succeeded)
            let file = directory.url.appendingPathComponent("__files/x.txt")
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: secret)
            let response = try #require(store.index.match(HTTPRequest(method: "GET", rawURL: "/a/"))?.response)
            #expect(response.status == 500)
            #expect(!response.body.text.contains("secret\""), "served \(response.body.text)")
            #expect(response.body.text.contains("outside __files"))
            // A link that stays inside __files is still followed.
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createSymbolicLink(
                at: file, withDestinationURL: directory.url.appendingPathComponent("__files/real/inside.txt"))
            #expect(store.index.match(HTTPRequest(method: "GET", rawURL: "/a/"))?.response.body.text == "inside")
        }
    }

    @Test("with preloadBodyFiles, bodies are read at load and served after their files are deleted")
    func preloaded() throws {
        try TemporaryDirectory.with { directory in
            try directory.write("from file", to: "__files/x.txt")
            try directory.write(stubJSON("x.txt"), to: "mappings/x.json")
            let lazy = StubStore(root: directory.path)
            let eager = StubStore(root: directory.path, preloadBodyFiles: true)
            #expect(lazy.reload().succeeded && eager.reload().succeeded)
            try FileManager.default.removeItem(at: directory.url.appendingPathComponent("__files/x.txt"))
            let request = HTTPRequest(method: "GET", rawURL: "/a/")
            #expect(eager.index.match(request)?.response.body.text == "from file")
            #expect(lazy.index.match(request)?.response.status == 500)
        }
    }

    @Test(
        "names that leave __files are refused",
        arguments: [
            "../secret.txt", "sub/../../secret.txt", "/etc/passwd", "./a.txt", "sub//a.txt", "", "a\\..\\secret.txt",
        ])
    func escapingNames(name: String) throws {
        try TemporaryDirectory.with { directory in
            try directory.write("secret", to: "secret.txt")
            try directory.write("a", to: "__files/a.txt")
            try directory.write("a", to: "__files/sub/a.txt")
            let store = BodyFileStore(root: directory.url.appendingPathComponent("__files"))
            #expect(throws: StubDefinitionError.self) { try store.body(named: name) }
        }
    }

    @Test(
        "a rendered name is taken where it leads once . and .. are resolved: inside __files it is served",
        arguments: [
            ("../__files/a.txt", "a.txt"), ("sub/../a.txt", "a.txt"), ("./sub//a.txt", "sub/a.txt"),
            ("../__files/sub/../sub/a.txt", "sub/a.txt"),
        ])
    func renderedNamesInside(rendered: String, name: String) throws {
        try TemporaryDirectory.with { directory in
            try directory.write("a", to: "__files/a.txt")
            try directory.write("sub a", to: "__files/sub/a.txt")
            let store = BodyFileStore(root: directory.url.appendingPathComponent("__files"))
            let file = try store.bodyFile(rendered: rendered)
            #expect(file.name == name)
            #expect(try file.load().text == (name == "a.txt" ? "a" : "sub a"))
        }
    }

    @Test(
        "a rendered name that leads outside __files, or to it, is refused",
        arguments: ["../secret.txt", "sub/../../secret.txt", "/etc/passwd", "", ".", "../__files", "a\\..\\secret.txt"])
    func renderedNamesOutside(rendered: String) throws {
        try TemporaryDirectory.with { directory in
            try directory.write("secret", to: "secret.txt")
            try directory.write("a", to: "__files/a.txt")
            let store = BodyFileStore(root: directory.url.appendingPathComponent("__files"))
            #expect(throws: StubDefinitionError.self) { try store.bodyFile(rendered: rendered) }
        }
    }

    @Test("a symbolic link pointing outside __files is refused, one inside is followed")
    func symlinks() throws {
        try TemporaryDirectory.with { directory in
            let secret = try directory.write("secret", to: "outside/secret.txt")
            try directory.write("inside", to: "__files/real/inside.txt")
            try directory.symlink("__files/evil.txt", to: secret)
            try directory.symlink("__files/evil-folder", to: secret.deletingLastPathComponent())
            try directory.symlink(
                "__files/alias.txt", to: directory.url.appendingPathComponent("__files/real/inside.txt"))
            try directory.symlink("__files/alias-folder", to: directory.url.appendingPathComponent("__files/real"))
            try directory.symlink("__files/here", to: directory.url.appendingPathComponent("__files"))
            try directory.write("top", to: "__files/top.txt")
            let store = BodyFileStore(root: directory.url.appendingPathComponent("__files"))
            let fileError = #expect(throws: StubDefinitionError.self) { try store.body(named: "evil.txt") }
            #expect(fileError?.message.contains("outside __files") == true)
            for _ in 0..<2 {  // the second time, with the folders already resolved
                let folderError = #expect(throws: StubDefinitionError.self) {
                    try store.body(named: "evil-folder/secret.txt")
                }
                #expect(folderError?.message.contains("outside __files") == true)
                #expect(try store.body(named: "alias.txt").text == "inside")
                #expect(try store.body(named: "alias-folder/inside.txt").text == "inside")
                #expect(try store.body(named: "real/inside.txt").text == "inside")
                #expect(try store.body(named: "here/top.txt").text == "top")  // through a link to __files itself
                #expect(try store.body(named: "here/real/inside.txt").text == "inside")
            }
        }
    }

    @Test("a refused body file is a warning naming bodyFileName, and its stub answers 500; strictly, a problem")
    func refusedInLoader() throws {
        try TemporaryDirectory.with { directory in
            try directory.write("secret", to: "secret.txt")
            try directory.write(stubJSON("../secret.txt"), to: "mappings/escape.json")
            try directory.write(stubJSON("missing.json"), to: "mappings/missing.json")
            let strict = StubLoader(root: directory.path, strict: true).load()
            #expect(strict.stubs.isEmpty)
            #expect(strict.problems.count == 2)
            #expect(strict.problems.allSatisfy { $0.message.contains("response.bodyFileName") })
            #expect(strict.problems.contains { $0.message.contains("cannot read body file __files/missing.json") })
            let served = StubLoader(root: directory.path).load()
            #expect(served.problems.isEmpty)
            #expect(served.warnings.map(\.message) == strict.problems.map(\.message))
            #expect(served.stubs.count == 2)
            for stub in served.stubs {
                #expect(stub.response.status == 500 && stub.warnings.count == 1)
                #expect(!stub.response.body.text.contains("secret\""))
            }
        }
    }

    @Test("an empty body file gives an empty body; a folder is refused")
    func emptyAndFolder() throws {
        try TemporaryDirectory.with { directory in
            try directory.write(Data(), to: "__files/empty.json")
            try directory.write("x", to: "__files/folder/inside.txt")
            let store = BodyFileStore(root: directory.url.appendingPathComponent("__files"))
            #expect(try store.body(named: "empty.json").count == 0)
            let error = #expect(throws: StubDefinitionError.self) { try store.body(named: "folder") }
            #expect(error?.message.contains("cannot read body file __files/folder") == true)
        }
    }

    @Test("a name the walk of __files listed is taken without a look at the disk; every other name is looked at")
    func listedNames() throws {
        try TemporaryDirectory.with { directory in
            let secret = try directory.write("secret", to: "outside/secret.txt")
            try directory.write("top", to: "__files/top.json")
            try directory.write("deep", to: "__files/a/b/deep.json")
            try directory.write("x", to: "__files/folder.json/inside.txt")
            try directory.write("hidden", to: "__files/.hidden.json")
            try directory.symlink("__files/evil.json", to: secret)
            try directory.symlink("__files/alias.json", to: directory.url.appendingPathComponent("__files/top.json"))
            try directory.symlink("__files/linked", to: directory.url.appendingPathComponent("__files/a"))
            let root = directory.url.appendingPathComponent("__files")
            let listed = StubLoader.walkBodyFiles(under: root.path)
            #expect(listed == ["top.json", "a/b/deep.json", "folder.json/inside.txt"])
            let store = BodyFileStore(root: root, listed: listed)
            #expect(try store.body(named: "top.json").text == "top")
            #expect(try store.body(named: "a/b/deep.json").text == "deep")
            #expect(store.diskLookups == 0)
            // A link, a folder, a hidden file, a missing one: each looked at on disk, as without a listing.
            #expect(try store.body(named: "alias.json").text == "top")
            #expect(try store.body(named: "linked/b/deep.json").text == "deep")
            #expect(try store.body(named: ".hidden.json").text == "hidden")
            let outside = #expect(throws: StubDefinitionError.self) { try store.body(named: "evil.json") }
            #expect(outside?.message == #""evil.json" resolves outside __files (through a symbolic link)"#)
            let folder = #expect(throws: StubDefinitionError.self) { try store.body(named: "folder.json") }
            #expect(folder?.message == "cannot read body file __files/folder.json: not a regular file")
            let missing = #expect(throws: StubDefinitionError.self) { try store.body(named: "missing.json") }
            #expect(missing?.message == "cannot read body file __files/missing.json: No such file or directory")
            #expect(store.diskLookups == 6)
        }
    }

    @Test("a listed name matches only byte for byte: another case or Unicode normal form is looked at on disk")
    func listedNamesByteForByte() throws {
        try TemporaryDirectory.with { directory in
            let composed = "caf\u{E9}.json"
            let decomposed = "cafe\u{301}.json"
            #expect(composed == decomposed)  // equal as Swift strings, two names to the file system
            try directory.write("composed", to: "__files/" + composed)
            try directory.write("lower", to: "__files/lower.json")
            let root = directory.url.appendingPathComponent("__files")
            let store = BodyFileStore(root: root, listed: StubLoader.walkBodyFiles(under: root.path))
            let lookups = { () -> String? in (try? store.body(named: decomposed))?.text }
            let upper = { () -> String? in (try? store.body(named: "LOWER.json"))?.text }
            #if os(Linux)
                #expect(lookups() == nil)
                #expect(upper() == nil)
            #else
                _ = (lookups(), upper())  // macOS file systems ignore case and normal form
            #endif
            #expect(store.diskLookups == 2)
            #expect(try store.body(named: composed).text == "composed")
            #expect(store.diskLookups == 2)
        }
    }

    @Test("after a load, names are looked at on disk: a body file made later is served by a templated name")
    func listingForgottenAfterLoad() throws {
        try TemporaryDirectory.with { directory in
            try directory.write("one", to: "__files/pages/1.json")
            try directory.write(
                #"{"request": {"urlPathPattern": "/p/.*"}, "response": {"transformers": ["response-template"], "#
                    + #""bodyFileName": "pages/{{request.pathSegments.[1]}}.json"}}"#, to: "mappings/pages.json")
            let result = StubLoader(root: directory.path).load()
            #expect(result.problems.isEmpty && result.warnings.isEmpty && result.stubs.count == 1)
            let store = try #require(result.stubs.compactMap(\.response.template).first?.bodyFiles)
            #expect(store.diskLookups == 0)
            try directory.write("two", to: "__files/pages/2.json")
            try FileManager.default.removeItem(at: directory.url.appendingPathComponent("__files/pages/1.json"))
            #expect(try store.bodyFile(rendered: "pages/2.json").load().text == "two")
            let removed = #expect(throws: StubDefinitionError.self) { try store.bodyFile(rendered: "pages/1.json") }
            #expect(removed?.message == "cannot read body file __files/pages/1.json: No such file or directory")
            #expect(store.diskLookups == 2)
        }
    }

    @Test("a load warns of a folder or a link out of __files named as a body file, and serves the rest")
    func loaderWarnings() throws {
        try TemporaryDirectory.with { directory in
            let secret = try directory.write("secret", to: "outside/secret.txt")
            try directory.write("x", to: "__files/folder.json/inside.txt")
            try directory.symlink("__files/evil.json", to: secret)
            try directory.write("ok", to: "__files/ok.json")
            try directory.write(stubJSON("folder.json"), to: "mappings/1.json")
            try directory.write(stubJSON("evil.json"), to: "mappings/2.json")
            try directory.write(stubJSON("ok.json"), to: "mappings/3.json")
            let result = StubLoader(root: directory.path).load()
            #expect(result.problems.isEmpty)
            let messages = result.warnings.map(\.message)
            #expect(messages.count == 2)
            #expect(messages.first?.hasSuffix("cannot read body file __files/folder.json: not a regular file") == true)
            #expect(
                messages.last?.hasSuffix(#""evil.json" resolves outside __files (through a symbolic link)"#) == true)
            #expect(result.stubs.map(\.response.status) == [500, 500, 200])
            #expect(result.stubs.last?.response.body.text == "ok")
        }
    }

    @Test("without a stub root, bodyFileName is refused")
    func noRoot() {
        let error = Fixtures.definitionError(stubJSON("a.json"))
        #expect(error?.field == "response.bodyFileName")
    }
}
