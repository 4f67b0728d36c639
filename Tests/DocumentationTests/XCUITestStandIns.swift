import Foundation

// Stand-ins for XCTest's UI-testing API, which exists only on Apple platforms: just enough for the documented
// XCUITest examples to compile here, with the signatures XCTest declares. XCTest itself is not imported, so no
// test runner sees these classes; the examples are compiled, never run.

/// XCTest's test case class under its name (an alias: Linux's test discovery would take a class of that name for
/// the real one).
typealias XCTestCase = UITestCaseStandIn

class UITestCaseStandIn {}

final class XCUIApplication {
    var launchEnvironment: [String: String] = [:]
    var staticTexts: XCUIElementQuery { XCUIElementQuery() }
    func launch() {}
}

struct XCUIElementQuery {
    subscript(_ identifier: String) -> XCUIElement { XCUIElement() }
}

struct XCUIElement {
    var exists: Bool { false }
    func waitForExistence(timeout: TimeInterval) -> Bool { false }
    func tap() {}
}

func XCTAssertTrue(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {}
