import Foundation
import PokestubCore

extension Configuration {
    /// Resolves the configuration from its four layers: defaults < config file < environment < flags.
    ///
    /// - Parameters:
    ///   - configFile: The config file named by `--config`, or `nil`. Without it, `POKESTUB_CONFIG` names the
    ///     file, and without that `./config.json` is used when it exists.
    ///   - environment: The process environment (inject it in tests).
    ///   - flags: Values from the command line by key (`["port": "0"]`).
    ///   - workingDirectory: Where `./config.json` is looked for.
    /// - Returns: The configuration and the config file used, if any.
    /// - Throws: ``ConfigurationError`` naming the key, or the file when it is missing or not valid JSON.
    public static func resolve(
        configFile: String?, environment: [String: String], flags: [String: String],
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(ConfigurationError) -> (Configuration, configFile: String?) {
        var configuration = Configuration()
        var path = configFile ?? environment["POKESTUB_CONFIG"]
        let explicit = path != nil
        if path == nil {
            let fallback = (workingDirectory as NSString).appendingPathComponent("config.json")
            if FileManager.default.fileExists(atPath: fallback) { path = "config.json" }
        }
        if let path {
            let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
            guard let data = try? Data(contentsOf: url) else {
                throw ConfigurationError(
                    key: "config", origin: explicit ? (configFile != nil ? "--config" : "POKESTUB_CONFIG") : path,
                    message: "cannot read config file \(path)")
            }
            try configuration.apply(configFile: data, path: path)
        }
        try configuration.apply(environment: environment)
        for key in Configuration.keys {
            if let value = flags[key] {
                try configuration.set(key, toText: value, from: "--" + Configuration.flagName(for: key))
            }
        }
        return (configuration, path)
    }

    /// The flag for a key: `journal.maxEntries` gives `journal-max-entries`.
    public static func flagName(for key: String) -> String {
        var name = ""
        for character in key {
            if character == "." {
                name += "-"
            } else if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }

    /// Every key's `config.json` path, in the order of ``ConfigurationKey/all``.
    public static let keys = ConfigurationKey.all.map(\.path)

    /// The environment variable for a key: `journal.maxEntries` gives `POKESTUB_JOURNAL_MAX_ENTRIES`.
    public static func environmentVariable(for key: String) -> String {
        var name = "POKESTUB_"
        for character in key {
            if character == "." {
                name += "_"
            } else if character.isUppercase {
                name += "_\(character)"
            } else {
                name += character.uppercased()
            }
        }
        return name
    }

    /// Sets one key from `config.json`, where values have their JSON types: a number for a number, `true` or
    /// `false` for a boolean, an array of strings for a list, and `null` for "none" where a key allows it.
    ///
    /// - Parameters:
    ///   - key: A key from ``keys``.
    ///   - value: The JSON value. A string where a number or a boolean belongs (`"port": "8080"`) is refused.
    ///   - origin: Where it came from, for the error message (the config file's path).
    /// - Throws: ``ConfigurationError`` naming the key when it is unknown or the value is invalid.
    public mutating func set(_ key: String, to value: JSONValue, from origin: String) throws(ConfigurationError) {
        try set(key, to: .json(value), from: origin)
    }

    /// Sets one key from an environment variable or a flag, whose values are text: numbers are digits,
    /// booleans `true` or `false`, lists comma-separated, and an empty `adminPort` means none.
    ///
    /// - Parameters:
    ///   - key: A key from ``keys``.
    ///   - text: The value as written.
    ///   - origin: Where it came from, for the error message (`POKESTUB_PORT`, `--port`).
    /// - Throws: ``ConfigurationError`` naming the key when it is unknown or the value is invalid.
    public mutating func set(_ key: String, toText text: String, from origin: String) throws(ConfigurationError) {
        try set(key, to: .text(text), from: origin)
    }

    private mutating func set(
        _ key: String, to value: ConfigurationInput.Value, from origin: String
    ) throws(ConfigurationError) {
        let input = ConfigurationInput(key: key, value: value, origin: origin)
        guard let entry = ConfigurationKey.named(key) else {
            throw input.fail("unknown key (known keys: \(Configuration.keys.joined(separator: ", ")))")
        }
        try entry.write(&self, input)
    }

    /// Applies a `config.json` document.
    ///
    /// - Parameters:
    ///   - data: The file's bytes: a JSON object; nested objects give dotted keys (`{"journal": {"maxEntries": 5}}`).
    ///   - path: The file's path, for errors and for resolving a relative `stubs` (the file's or the default)
    ///     against the file's folder.
    /// - Throws: ``ConfigurationError`` for invalid JSON, an unknown key or an invalid value.
    public mutating func apply(configFile data: Data, path: String) throws(ConfigurationError) {
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch {
            let position = error.line.map { ":\($0)" } ?? ""
            throw ConfigurationError(key: "", origin: path + position, message: error.message)
        }
        guard case .object = json else {
            throw ConfigurationError(key: "", origin: path, message: "must be a JSON object")
        }
        try apply(json, prefix: "", origin: path)
        // The file's folder is where its stubs are: a `stubs` it sets, or the default ("stubs") when it sets none.
        // Layers applied later (environment, flags) replace the path and stay relative to the working directory.
        if !stubs.hasPrefix("/") {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty && folder != "." { stubs = (folder as NSString).appendingPathComponent(stubs) }
        }
    }

    private mutating func apply(_ json: JSONValue, prefix: String, origin: String) throws(ConfigurationError) {
        guard case .object(let members) = json else { return }
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            let key = prefix.isEmpty ? name : "\(prefix).\(name)"
            if case .object = value, !Configuration.keys.contains(key) {
                try apply(value, prefix: key, origin: origin)
            } else {
                try set(key, to: value, from: origin)
            }
        }
    }

    /// Applies every `POKESTUB_*` variable that names a key.
    ///
    /// - Parameter environment: The environment (inject it; tests never call `setenv`).
    public mutating func apply(environment: [String: String]) throws(ConfigurationError) {
        for key in Configuration.keys {
            let variable = Configuration.environmentVariable(for: key)
            if let value = environment[variable] { try set(key, toText: value, from: variable) }
        }
    }
}
