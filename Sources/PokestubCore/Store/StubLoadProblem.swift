/// A problem found while loading a stub tree, reported as `path:line: message` like a compiler diagnostic.
public struct StubLoadProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as a path under the stub root the user gave (`stubs/mappings/pokemon/1.json`).
    public var path: String
    /// The 1-based line, when known.
    public var line: Int?
    /// What is wrong.
    public var message: String

    /// Creates a problem.
    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// `path:line: message`, or `path: message` when the line is unknown.
    public var description: String {
        line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)"
    }
}

/// The problems of one mapping file, in the order found: what ``StubLoader`` collects per file.
struct StubLoadProblems: Error, Sendable {
    /// Never empty.
    var problems: [StubLoadProblem]

    init(_ problems: [StubLoadProblem]) {
        self.problems = problems
    }
}
