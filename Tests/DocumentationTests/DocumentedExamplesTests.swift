import Foundation
import PokestubTestSupport
import Testing

/// Every Swift example in README.md, Docs/, Benchmarks/README.md, the DocC catalogs and the documentation comments of the documented
/// libraries (which DocC shows on each symbol's page) appears, line for line, in this folder, where it is
/// compiled (and, where it needs no fixed port or real app, run). Editing an example in the docs without
/// bringing it here fails this test; an example that stops compiling fails the build.
@Suite("Documented examples")
struct DocumentedExamplesTests {
    /// A fenced Swift block of a document.
    struct Example: CustomStringConvertible {
        var file: String
        var line: Int
        var lines: [String]
        var description: String { "\(file):\(line)" }
    }

    /// The libraries whose documentation comments' examples are checked: the four with a DocC catalog.
    static let documentedLibraries = ["PokestubJSON", "PokemonClient", "PokestubClient", "PokestubTesting"]

    /// The documents whose Swift examples are checked: Markdown files, and the Swift sources of
    /// ``documentedLibraries``, whose examples sit in `///` comments.
    static func documents() throws -> [String] {
        let manager = FileManager.default
        var paths = ["README.md", "Benchmarks/README.md"]
        for name in try manager.contentsOfDirectory(atPath: Repository.root.appendingPathComponent("Docs").path)
        where name.hasSuffix(".md") {
            paths.append("Docs/\(name)")
        }
        let sources = Repository.root.appendingPathComponent("Sources")
        for target in try manager.contentsOfDirectory(atPath: sources.path) {
            let catalog = "\(target)/\(target).docc"
            guard let names = try? manager.contentsOfDirectory(atPath: sources.appendingPathComponent(catalog).path)
            else { continue }
            for name in names where name.hasSuffix(".md") { paths.append("Sources/\(catalog)/\(name)") }
        }
        for library in documentedLibraries {
            let folder = sources.appendingPathComponent(library)
            guard let enumerator = manager.enumerator(atPath: folder.path) else { continue }
            for case let name as String in enumerator where name.hasSuffix(".swift") {
                paths.append("Sources/\(library)/\(name)")
            }
        }
        return paths.sorted()
    }

    /// The fenced Swift blocks of a Markdown file, or of the `///` comments of a Swift file.
    static func examples(in path: String) throws -> [Example] {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(path), encoding: .utf8)
        let isSwift = path.hasSuffix(".swift")
        var examples: [Example] = []
        var current: Example?
        for (number, fullLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(fullLine)
            if isSwift {
                let code = fullLine.drop { $0 == " " }
                guard code.hasPrefix("///") else {
                    current = nil  // a comment ends with its block
                    continue
                }
                line = code.dropFirst(3)
                if line.hasPrefix(" ") { line = line.dropFirst() }
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var example = current {
                if trimmed == "```" {
                    examples.append(example)
                    current = nil
                } else {
                    example.lines.append(String(line))
                    current = example
                }
            } else if trimmed == "```swift" {
                current = Example(file: path, line: number + 1, lines: [])
            }
        }
        return examples
    }

    /// Lines as compared: trimmed, without blank lines and `import`s (a test file has its imports at the top),
    /// with the shipped stubs' relative path read as the repository's (tests run from any folder).
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
            .map { $0.replacingOccurrences(of: #"stubsDirectory: "stubs""#, with: "stubsDirectory: Repository.stubs") }
    }

    /// Examples that cannot build here: SwiftUI exists only on Apple platforms, and a manifest fragment is not
    /// code of a target.
    static func isExempt(_ example: Example) -> Bool {
        example.lines.contains { $0.contains("import SwiftUI") || $0.contains("#Preview") || $0.contains(".product(") }
    }

    static func testSources() throws -> [String: String] {
        let folder = Repository.root.appendingPathComponent("Tests/DocumentationTests")
        var sources: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            sources[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return sources
    }

    @Test("every Swift example of the docs is compiled here, line for line")
    func examplesAreHere() throws {
        let sources = try Self.testSources()
        let haystack = sources.values.map { Self.normalized($0.components(separatedBy: "\n")) }
        var checked = 0
        for path in try Self.documents() {
            for example in try Self.examples(in: path) where !Self.isExempt(example) {
                let wanted = Self.normalized(example.lines)
                let found = haystack.contains { lines in
                    lines.count >= wanted.count
                        && (0...(lines.count - wanted.count)).contains {
                            Array(lines[$0..<$0 + wanted.count]) == wanted
                        }
                }
                #expect(found, "the example at \(example) is not in Tests/DocumentationTests: \(wanted.first ?? "")")
                checked += 1
            }
        }
        #expect(checked >= 10, "only \(checked) examples found: is the fence still ```swift?")
    }

    @Test("the examples import only the libraries a user's package can depend on")
    func examplesImportProducts() throws {
        let allowed: Set = [
            "Foundation", "PokemonClient", "PokestubClient", "PokestubTesting", "PokestubXCTest", "SwiftUI", "Testing",
            "XCTest",
        ]
        for path in try Self.documents() {
            for example in try Self.examples(in: path) {
                for line in example.lines where line.hasPrefix("import ") {
                    let module = String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces)
                    #expect(allowed.contains(module), "\(example) imports \(module), which is not a product")
                }
            }
        }
        for (name, text) in try Self.testSources() {
            for internalModule in ["PokestubCore", "PokestubServer", "PokestubUpstream"] {
                #expect(!text.contains("import \(internalModule)"), "\(name) imports \(internalModule)")
            }
        }
    }
}
