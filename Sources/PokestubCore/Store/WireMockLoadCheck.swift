import Foundation
import PokestubJSON

/// Stubs pokestub serves from a file that WireMock 2.35.1 refuses to load, for `pokestub check` to warn about.
///
/// The one case known: `absent` as a member of `and` or `or`, in a query parameter, header or cookie test, at
/// any depth. WireMock 2.35.1 reads such a test as having one matcher fewer and refuses it whatever the number
/// of members ("Logical OR must be constructed with at least two matchers", checked against its jar): it does
/// not start on a tree whose mapping file holds one, and its admin API answers 422. pokestub reads the test
/// literally and serves the stub, so these are warnings that change neither the exit status nor what is served.
package enum WireMockLoadCheck {
    /// What WireMock 2.35.1 says of a test holding `absent` inside `and` or `or`, after the field's name.
    static let message =
        "absent inside and/or: WireMock 2.35.1 refuses this file at load (\"Logical OR must be constructed with"
        + " at least two matchers\"); pokestub serves it as written"

    /// One warning per test WireMock 2.35.1 refuses, in the stubs' order.
    ///
    /// - Parameters:
    ///   - stubs: Stubs as ``StubLoader`` read them; stubs not read from a file are skipped.
    ///   - root: The stub root as the user gave it; warnings name files under it.
    /// - Returns: Warnings as `path:line: message`, the message starting with `mappings[N]: ` in a file of
    ///   several mappings and naming the field (`request.queryParameters.offset: absent inside and/or: …`).
    package static func warnings(in stubs: [StubMapping], root: String) -> [StubLoadProblem] {
        var found: [StubLoadProblem] = []
        for stub in stubs {
            guard case .file(let relative) = stub.source else { continue }
            let request = stub.request
            var fields: [[String]] = []
            for (name, pattern) in request.queryParameters.sorted(by: { $0.key < $1.key })
            where holdsLogicalAbsent(pattern) {
                fields.append(["queryParameters", name])
            }
            for (name, pattern) in request.headers.sorted(by: { $0.key < $1.key }) where holdsLogicalAbsent(pattern) {
                fields.append(["headers", name])
            }
            for (name, pattern) in request.cookies.sorted(by: { $0.key < $1.key }) where holdsLogicalAbsent(pattern) {
                fields.append(["cookies", name])
            }
            let item = stub.definitionSource.item
            for field in fields {
                let keyPath = (item.map { ["mappings", String($0)] } ?? []) + ["request"] + field
                let prefix = item.map { "mappings[\($0)]: " } ?? ""
                found.append(
                    StubLoadProblem(
                        path: (root as NSString).appendingPathComponent(relative),
                        line: TextPosition.line(ofKeyPath: keyPath, in: stub.definitionSource.data),
                        message: prefix + "request." + field.joined(separator: ".") + ": " + message))
            }
        }
        return found
    }

    private static func holdsLogicalAbsent(_ pattern: MultiValuePattern) -> Bool {
        switch pattern {
        case .single(let single): holdsLogicalAbsent(single)
        case .hasExactly(let patterns), .includes(let patterns): patterns.contains { holdsLogicalAbsent($0) }
        }
    }

    /// Whether `pattern` is, or holds, an `and` or `or` with an `absent` member.
    private static func holdsLogicalAbsent(_ pattern: StringValuePattern) -> Bool {
        switch pattern {
        case .and(let members), .or(let members):
            members.contains {
                if case .absent = $0 { return true }
                return holdsLogicalAbsent($0)
            }
        default: false
        }
    }
}
