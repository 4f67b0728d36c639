/// Where in the test a check was called: the file and line a failure report names, so a log read at the
/// test function (where Swift Testing and XCTest list a thrown error) still points at the call.
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
    /// The full path of the file, as `#filePath` gives it.
    public var filePath: String
    /// The line, counted from 1.
    public var line: Int

    /// Creates a call site.
    ///
    /// - Parameters:
    ///   - filePath: The full path of the file, e.g. `#filePath`.
    ///   - line: The line, e.g. `#line`.
    public init(filePath: String, line: Int) {
        self.filePath = filePath
        self.line = line
    }

    /// Creates a call site from what XCTest's assertions take.
    ///
    /// - Parameters:
    ///   - file: `#filePath` of the call.
    ///   - line: `#line` of the call.
    public init(file: StaticString, line: UInt) {
        self.init(filePath: "\(file)", line: Int(line))
    }

    /// `VerificationTests.swift:42`: the file's name (not its folders) and the line.
    public var description: String {
        let name = filePath.split(separator: "/").last.map(String.init) ?? filePath
        return "\(name):\(line)"
    }
}
