import PokestubCore

/// Configuration that cannot be used. The daemon exits with status 78 (`EX_CONFIG`, sysexits(3)).
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key at fault (`port`), or empty for a whole-file problem.
    public var key: String
    /// Where the value came from: a file path, an environment variable or a flag.
    public var origin: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(key: String, origin: String, message: String) {
        self.key = key
        self.origin = origin
        self.message = message
    }

    public var description: String {
        key.isEmpty ? "\(origin): \(message)" : "invalid configuration \(key) (from \(origin)): \(message)"
    }
}
