import Foundation

/// A place where a JSON value does not fit its schema: `$.stats[0].base_stat: expected integer, got string`.
package struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// What kind of misfit it is; the admin API and the log group violations by it.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The value has a type the schema does not allow (`expected integer, got string`).
        case type
        /// An object lacks a member its schema requires (`required member missing`); the path names the member.
        case required
    }

    /// Where, as a JSONPath in dot notation (RFC 9535 §2.5.1.1's shorthand where a name allows it, otherwise
    /// `['name']`): `$.stats[0].base_stat`, `$['pokemon-species']`, `$` for the whole value.
    package var path: String
    /// The same place as member names and decimal array positions from the root (`["stats", "0",
    /// "base_stat"]`): what ``TextPosition/line(ofKeyPath:in:)`` takes to find the line in the text.
    package var keyPath: [String]
    /// The kind of misfit.
    package var kind: Kind
    /// What was expected and found: `expected integer, got string`.
    package var message: String

    /// Creates a violation.
    package init(path: String, keyPath: [String], kind: Kind, message: String) {
        self.path = path
        self.keyPath = keyPath
        self.kind = kind
        self.message = message
    }

    /// `$.stats[0].base_stat: expected integer, got string`.
    package var description: String { "\(path): \(message)" }

    /// One step of a path into a JSON value.
    enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)

        /// The step as ``TextPosition/line(ofKeyPath:in:)`` takes it.
        var text: String {
            switch self {
            case .member(let name): name
            case .index(let position): String(position)
            }
        }
    }

    /// Creates a violation at a path given as steps.
    init(at steps: [Step], kind: Kind, message: String) {
        self.init(path: SchemaViolation.path(of: steps), keyPath: steps.map(\.text), kind: kind, message: message)
    }

    /// The JSONPath of a path given as steps.
    static func path(of steps: [Step]) -> String {
        var text = "$"
        for step in steps {
            switch step {
            case .index(let position): text += "[\(position)]"
            case .member(let name):
                if SchemaViolation.isShorthandName(name) {
                    text += "." + name
                } else {
                    let escaped = name.replacingOccurrences(of: "\\", with: "\\\\")
                        .replacingOccurrences(of: "'", with: "\\'")
                    text += "['\(escaped)']"
                }
            }
        }
        return text
    }

    /// Whether a member name may be written `.name`: an ASCII letter or `_`, then letters, digits and `_`.
    private static func isShorthandName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (0x30...0x39).contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
