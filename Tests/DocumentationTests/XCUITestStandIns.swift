import Foundation
import PokestubClient
import PokestubTestSupport
import Testing

// Stand-ins for XCTest's UI-testing API, which exists only on Apple platforms: just enough for the documented
// XCUITest examples to compile here, with the signatures XCTest declares. XCTest itself is not imported, so no
// test runner sees these classes. XCUIApplication launches the stand-in app (Tests/PokedexStandIn) for real,
// so XCUITestAppTests runs the guide's steps against a daemon session; a failed XCTAssertTrue is an issue.

/// XCTest's test case class under its name (an alias: Linux's test discovery would take a class of that name for
/// the real one).
typealias XCTestCase = UITestCaseStandIn

class UITestCaseStandIn {}

/// XCTest's `XCUIApplication`, launching the stand-in app (`Tests/PokedexStandIn`, built with the tests) as a
/// process with ``launchEnvironment`` as its whole environment, as XCUITest hands it to the app under test. The
/// app prints its screen's labels (`text: NAME`); ``staticTexts`` finds them there, and `tap()` sends
/// `tap NAME` to its standard input.
final class XCUIApplication: @unchecked Sendable {
    // @unchecked: every mutable member is read and written under `condition`, which also signals new output.
    var launchEnvironment: [String: String] = [:]
    private let condition = NSCondition()
    private var labels: [String] = []
    private var errors: [String] = []
    private var process: Process?
    private var input: FileHandle?

    var staticTexts: XCUIElementQuery { XCUIElementQuery(app: self) }

    /// Starts the stand-in app; a missing binary or a failed launch is recorded as an issue.
    func launch() {
        guard let binary = Repository.builtExecutable(named: "PokedexStandIn").found else {
            Issue.record("the stand-in app PokedexStandIn is not built (swift build --build-tests)")
            return
        }
        let process = Process()
        process.executableURL = binary
        process.environment = launchEnvironment
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.received(handle.availableData)
        }
        do { try process.run() } catch {
            Issue.record("the stand-in app did not start: \(error)")
            return
        }
        locked {
            self.process = process
            self.input = input.fileHandleForWriting
        }
    }

    /// Ends the stand-in app (XCTest ends the app under test after each test).
    func terminate() {
        let (process, input) = locked { (self.process, self.input) }
        try? input?.close()
        process?.waitUntilExit()
        (process?.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
    }

    deinit { try? input?.close() }

    private var pending = Data()

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    private func received(_ data: Data) {
        locked {
            pending.append(data)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if line.hasPrefix("text: ") { labels.append(String(line.dropFirst(6))) }
                if line.hasPrefix("error: ") { errors.append(String(line.dropFirst(7))) }
            }
            condition.broadcast()
        }
    }

    /// Whether a label reads `label`, waiting until `deadline` for it to appear.
    func waitForLabel(_ label: String, until deadline: Date) -> Bool {
        locked {
            while !labels.contains(label) {
                guard condition.wait(until: deadline) else { return labels.contains(label) }
            }
            return true
        }
    }

    /// The errors the app showed, for a failure message.
    var shownErrors: [String] { locked { errors } }

    func send(_ line: String) {
        let input = locked { self.input }
        try? input?.write(contentsOf: Data((line + "\n").utf8))
    }
}

struct XCUIElementQuery {
    let app: XCUIApplication
    subscript(_ identifier: String) -> XCUIElement { XCUIElement(app: app, label: identifier) }
}

struct XCUIElement {
    let app: XCUIApplication
    let label: String
    var exists: Bool { app.waitForLabel(label, until: Date()) }
    func waitForExistence(timeout: TimeInterval) -> Bool {
        app.waitForLabel(label, until: Date(timeIntervalSinceNow: timeout))
    }
    func tap() { app.send("tap \(label)") }
}

func XCTAssertTrue(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    let holds = (try? expression()) ?? false
    if !holds {
        Issue.record(
            "XCTAssertTrue failed: \(message())",
            sourceLocation: SourceLocation(
                fileID: String(describing: file), filePath: String(describing: file), line: Int(line), column: 1))
    }
}

/// PokestubXCTest's `attachingFailuresToXCTest()`, whose XCTest side exists on Apple platforms only: here a
/// failed check's attachments go to the ``XCTActivityStandIn`` the test set as ``XCTActivityStandIn/current``,
/// where Apple's XCTest would add them to an activity of the running test.
extension PokestubAdminClient {
    func attachingFailuresToXCTest() -> PokestubAdminClient {
        recordingFailureAttachments { attachments in await XCTActivityStandIn.current?.add(attachments) }
    }
}

/// What an XCTest activity would hold: the attachments added to it, in order.
actor XCTActivityStandIn {
    /// The activity of the running test, set by the test around its steps.
    @TaskLocal static var current: XCTActivityStandIn?

    private(set) var attachments: [FailureAttachment] = []

    func add(_ added: [FailureAttachment]) { attachments += added }
}
