import Foundation
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// A failing Swift Testing test leaves its attachments on disk: the test runs this package's own test
/// executable again, in a child process, for one test that fails on purpose
/// (``AttachmentFixture/failingVerify()``) with `--attachments-path DIR` (what `swift test --attachments-path
/// DIR` hands the executable), and reads DIR. A child process, because only a real failure shows what a test
/// report gets, and a failure inside this run would fail it; the fixture runs only in that child.
@Suite("Swift Testing attachments")
struct SwiftTestingAttachmentsTests {
    /// The running test executable, which Linux builds as a program (`<product>PackageTests.xctest`); `nil`
    /// where the tests are a bundle a runner loads (macOS), which cannot be started on its own.
    static let testExecutable: URL? = {
        let url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var isFolder: ObjCBool = false
        guard url.lastPathComponent.hasSuffix(".xctest"),
            FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue,
            FileManager.default.isExecutableFile(atPath: url.path)
        else { return nil }
        return url
    }()

    @Test(
        "a failed verify in a Swift Testing test writes the report, the journal and its HAR under --attachments-path",
        .enabled(if: testExecutable != nil, "runs the test executable, a program on Linux only"),
        .timeLimit(.minutes(5)))
    func attachmentsOnDisk() async throws {
        let executable = try #require(Self.testExecutable)
        let folder = try TemporaryDirectory()
        let attachments = folder.url.appendingPathComponent("attachments")
        try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
        let log = folder.url.appendingPathComponent("child.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "--testing-library", "swift-testing", "--filter", "AttachmentFixture", "--attachments-path",
            attachments.path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[AttachmentFixture.variable] = "1"
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer { process.killAndReap() }
        let status = await process.waitForExit(timeout: .seconds(240))
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(status != nil, "the child test run did not end within 240 s:\n\(text)")
        #expect(status != 0, "the fixture test must fail:\n\(text)")
        #expect(text.contains("Attached 'pokestub-failure.txt'"), "the child ran the fixture:\n\(text)")

        let names = try FileManager.default.contentsOfDirectory(atPath: attachments.path).sorted()
        func file(_ name: String) throws -> Data {
            let found = try #require(names.first { $0.hasSuffix(name) }, "no \(name) among \(names):\n\(text)")
            return try Data(contentsOf: attachments.appendingPathComponent(found))
        }
        let report = String(decoding: try file(FailureAttachment.reportName), as: UTF8.self)
        #expect(report.hasPrefix("SwiftTestingAttachmentsTests.swift:"), "the call site leads:\n\(report)")
        #expect(
            report.contains(": expected exactly 1 request matching GET /api/v2/pokemon/1/, but 0 matched."),
            "\(report)")
        #expect(report.contains("GET /api/v2/pokemon/26/ is closest to stub \"pikachu\""), "\(report)")
        let journal = try JSONValue(parsing: try file(FailureAttachment.journalName))
        let urls = journal["requests"]?.arrayValue?.compactMap { $0["request"]?["url"]?.stringValue }
        #expect(urls == ["/api/v2/pokemon/26/", "/api/v2/pokemon/25/"], "\(String(describing: urls))")
        let har = try JSONValue(parsing: try file(FailureAttachment.harName))
        #expect(har["log"]?["entries"]?.arrayValue?.count == 2)
    }
}

/// The test that fails on purpose, for ``SwiftTestingAttachmentsTests/attachmentsOnDisk()``: it runs only in
/// the child process, which sets ``variable``.
@Suite("Attachment fixture")
struct AttachmentFixture {
    /// The environment variable that lets the fixture run: `POKESTUB_ATTACHMENT_FIXTURE=1`.
    static let variable = "POKESTUB_ATTACHMENT_FIXTURE"

    @Test(
        "fails: a verify finds no request for /api/v2/pokemon/1/",
        .enabled(if: ProcessInfo.processInfo.environment[variable] == "1", "fails on purpose; run by attachmentsOnDisk")
    )
    func failingVerify() async throws {
        try await withStubServer(mappings: [FailureAttachmentsTests.pikachu]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/"))
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/26/"))
            try await server.admin.verify(count: 1, .get("/api/v2/pokemon/1/"))
        }
    }
}
