import Foundation
import PokestubCore

/// One value for one key as a layer gives it, typed JSON from `config.json` or text from the environment and
/// flags, with where it came from; read as the key's kind asks, failing with an error that names the key.
struct ConfigurationInput {
    /// The value as written.
    enum Value {
        case json(JSONValue)
        case text(String)
    }

    /// The key being set (`limits.maxConnections`).
    var key: String
    /// The value.
    var value: Value
    /// Where it came from: the config file's path, an environment variable or a flag.
    var origin: String

    /// An error naming the key and the origin.
    func fail(_ message: String) -> ConfigurationError {
        ConfigurationError(key: key, origin: origin, message: message)
    }

    /// How the value reads in an error message: text as written, JSON with its type.
    var quoted: String {
        switch value {
        case .text(let text): text.debugDescription
        case .json(.string(let text)): "the string \(text.debugDescription)"
        case .json(let json):
            switch json {
            case .integer, .double: "the number \(json.serializedString())"
            case .array: "an array"
            case .object: "an object"
            default: json.serializedString()
            }
        }
    }

    /// The value as a string; any text, or a JSON string.
    func text() throws(ConfigurationError) -> String {
        switch value {
        case .text(let text): return text
        case .json(.string(let text)): return text
        case .json: throw fail("must be a string, not \(quoted)")
        }
    }

    /// The value as a whole number within `range`: digits as text, a JSON number (`8080.0` too) in a file.
    func integer(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        let parsed: Int?
        switch value {
        case .text(let text): parsed = Int(text.trimmingCharacters(in: .whitespaces))
        case .json(.string): throw fail("must be a JSON number, not \(quoted) (write it without quotes)")
        case .json(let json): parsed = json.intValue
        }
        guard let parsed, range.contains(parsed) else {
            throw fail("must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(quoted)")
        }
        return parsed
    }

    /// The value as a boolean: `true` or `false` as text (any case), a JSON boolean in a file.
    func bool() throws(ConfigurationError) -> Bool {
        switch value {
        case .json(.bool(let flag)): return flag
        case .json(.string):
            throw fail("must be a JSON boolean, true or false, not \(quoted) (write it without quotes)")
        case .json: throw fail("must be true or false, not \(quoted)")
        case .text(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true": return true
            case "false": return false
            default: throw fail("must be true or false, not \(quoted)")
            }
        }
    }

    /// The value as a list of strings: comma-separated text (empty items dropped), a JSON array of strings.
    func list() throws(ConfigurationError) -> [String] {
        switch value {
        case .json(.array(let items)):
            var names: [String] = []
            for item in items {
                guard case .string(let name) = item else { throw fail("must be an array of strings") }
                names.append(name)
            }
            return names
        case .json: throw fail("must be an array of strings, not \(quoted)")
        case .text(let text):
            return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// Whether the value is the key's "none": `null` in JSON or empty text.
    var isNone: Bool {
        switch value {
        case .json(.null): true
        case .text(let text): text.trimmingCharacters(in: .whitespaces).isEmpty
        case .json: false
        }
    }
}
