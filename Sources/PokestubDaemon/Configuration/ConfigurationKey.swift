import PokestubCore

/// One `pokestub serve` configuration key: where it is written, what it takes, what it does, and how it reads
/// and writes its ``Configuration`` field.
///
/// Every key is an entry of ``all``. The layered parser (`config.json`, `POKESTUB_*` environment variables,
/// flags), the option list of `serve --help` and the table of `Docs/Configuration.md` all come from that list,
/// so a key is declared once:
///
/// ```swift
/// let key = ConfigurationKey.named("limits.maxConnections")!
/// key.environmentVariable  // "POKESTUB_LIMITS_MAX_CONNECTIONS"
/// key.flagName  // "limits-max-connections"
/// key.defaultValue  // .integer(1024)
/// ```
public struct ConfigurationKey: Sendable {
    /// What a key's value is, as far as users write it.
    public enum Kind: Sendable, Equatable {
        /// A whole number within a range.
        case integer(ClosedRange<Int>)
        /// `true` or `false`.
        case boolean
        /// Text, checked by the key.
        case string
        /// A list of strings: a JSON array, or comma-separated text.
        case list
        /// One of a few names (`mode`, `logLevel`).
        case choice([String])
        /// A TCP port from 0 to 65535, or none (`null` in JSON, empty text).
        case optionalPort
    }

    /// The key as written in `config.json`, dotted for nested objects (`limits.maxConnections`).
    public let path: String
    /// What the value is.
    public let kind: Kind
    /// One line on what the key does, as `serve --help` prints it.
    public let summary: String
    /// The word that stands for the value after the flag in `serve --help` (`N`, `URL`).
    public let placeholder: String
    /// A few words on the default, shown after it (`0 picks a free port`), or `nil`.
    public let defaultNote: String?
    /// Whether the flag takes no value: given, it means `true`.
    public let isSwitch: Bool
    /// Whether `serve --help` prints the default after the summary.
    public let helpShowsDefault: Bool
    let read: @Sendable (Configuration) -> JSONValue
    let write: @Sendable (inout Configuration, ConfigurationInput) throws(ConfigurationError) -> Void

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - path: The dotted `config.json` key.
    ///   - kind: What the value is.
    ///   - placeholder: The value's stand-in in `serve --help`.
    ///   - defaultNote: Words shown after the default, or `nil`.
    ///   - isSwitch: Whether the flag takes no value.
    ///   - helpShowsDefault: Whether `serve --help` prints the default.
    ///   - summary: What the key does, one line.
    ///   - read: The field's value as JSON, as `config.json` would write it.
    ///   - write: Sets the field from a layer's value, throwing an error that names the key when it is invalid.
    init(
        _ path: String, kind: Kind, placeholder: String, defaultNote: String? = nil, isSwitch: Bool = false,
        helpShowsDefault: Bool = true, _ summary: String, read: @escaping @Sendable (Configuration) -> JSONValue,
        write: @escaping @Sendable (inout Configuration, ConfigurationInput) throws(ConfigurationError) -> Void
    ) {
        self.path = path
        self.kind = kind
        self.placeholder = placeholder
        self.defaultNote = defaultNote
        self.isSwitch = isSwitch
        self.helpShowsDefault = helpShowsDefault
        self.summary = summary
        self.read = read
        self.write = write
    }

    /// The environment variable: `journal.maxEntries` gives `POKESTUB_JOURNAL_MAX_ENTRIES`.
    public var environmentVariable: String { Configuration.environmentVariable(for: path) }
    /// The flag without its leading `--`: `journal.maxEntries` gives `journal-max-entries`.
    public var flagName: String { Configuration.flagName(for: path) }
    /// The built-in default, as `config.json` would write it (`null` for none).
    public var defaultValue: JSONValue { read(Configuration()) }

    /// The key's value in a configuration, as `config.json` would write it.
    ///
    /// - Parameter configuration: The configuration to read.
    /// - Returns: The field's value as JSON; `null` for none.
    public func value(in configuration: Configuration) -> JSONValue {
        read(configuration)
    }

    /// The key for a dotted path, or `nil` when there is none.
    ///
    /// - Parameter path: A key as written in `config.json` (`port`, `limits.maxConnections`).
    /// - Returns: The entry of ``all`` with that path.
    public static func named(_ path: String) -> ConfigurationKey? {
        all.first { $0.path == path }
    }
}

extension ConfigurationKey {
    /// A whole-number key stored in an `Int` field.
    static func integer(
        _ path: String, _ field: any WritableKeyPath<Configuration, Int> & Sendable, in range: ClosedRange<Int>,
        placeholder: String = "N", note: String? = nil, _ summary: String
    ) -> ConfigurationKey {
        ConfigurationKey(
            path, kind: .integer(range), placeholder: placeholder, defaultNote: note, summary,
            read: { .integer(Int64($0[keyPath: field])) },
            write: { configuration, input throws(ConfigurationError) in
                configuration[keyPath: field] = try input.integer(range)
            })
    }

    /// A boolean key stored in a `Bool` field.
    static func boolean(
        _ path: String, _ field: any WritableKeyPath<Configuration, Bool> & Sendable, isSwitch: Bool = false,
        note: String? = nil, _ summary: String
    ) -> ConfigurationKey {
        ConfigurationKey(
            path, kind: .boolean, placeholder: "true|false", defaultNote: note, isSwitch: isSwitch,
            helpShowsDefault: !isSwitch, summary, read: { .bool($0[keyPath: field]) },
            write: { configuration, input throws(ConfigurationError) in
                configuration[keyPath: field] = try input.bool()
            })
    }

    /// A list-of-strings key stored in a `[String]` field.
    static func list(
        _ path: String, _ field: any WritableKeyPath<Configuration, [String]> & Sendable, note: String? = nil,
        _ summary: String
    ) -> ConfigurationKey {
        ConfigurationKey(
            path, kind: .list, placeholder: "LIST", defaultNote: note, summary,
            read: { .array($0[keyPath: field].map(JSONValue.string)) },
            write: { configuration, input throws(ConfigurationError) in
                configuration[keyPath: field] = try input.list()
            })
    }
}
