import Foundation
import PokestubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Configuration {
    /// Resolves the configuration from its four layers: defaults < config file < environment < flags.
    ///
    /// - Parameters:
    ///   - configFile: The config file named by `--config`, or `nil`. Without it, `POKESTUB_CONFIG` names the
    ///     file, and without that `./config.json` is used when it exists.
    ///   - environment: The process environment (inject it in tests).
    ///   - flags: Values from the command line by key (`["port": "0"]`).
    ///   - workingDirectory: Where `./config.json` is looked for, and what a relative `adminTokenFile` is
    ///     relative to.
    ///   - readingAdminToken: Whether to read ``adminToken`` from ``adminTokenFile``, or from the systemd
    ///     credential `admin-token` when neither is set (what `serve` needs; `check` and `import` skip it).
    /// - Returns: The configuration and the config file used, if any.
    /// - Throws: ``ConfigurationError`` naming the key, or the file when it is missing or not valid JSON, or
    ///   the token file when it cannot be used (``AdminTokenFile/read(_:)``).
    public static func resolve(
        configFile: String?, environment: [String: String], flags: [String: String],
        workingDirectory: String = FileManager.default.currentDirectoryPath, readingAdminToken: Bool = true
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
        guard readingAdminToken else { return (configuration, path) }
        func origin(of key: String) -> String {
            if flags[key] != nil { return "--" + Configuration.flagName(for: key) }
            let variable = Configuration.environmentVariable(for: key)
            return environment[variable] != nil ? variable : path ?? "config.json"
        }
        try configuration.readAdminToken(
            environment: environment, workingDirectory: workingDirectory, origin: origin(of:))
        return (configuration, path)
    }

    /// Sets ``adminToken`` from ``adminTokenFile``, or, when neither is set, from the systemd credential
    /// ``AdminTokenFile/credentialName`` in `$CREDENTIALS_DIRECTORY` when the service manager passed one
    /// (systemd.exec(5), `LoadCredential=`).
    ///
    /// - Throws: ``ConfigurationError`` naming the key and the file when both keys are set or the file is not a
    ///   good token file (``AdminTokenFile/read(_:)``).
    private mutating func readAdminToken(
        environment: [String: String], workingDirectory: String, origin: (String) -> String
    ) throws(ConfigurationError) {
        if let file = adminTokenFile {
            guard adminToken == nil else {
                throw ConfigurationError(
                    key: "adminTokenFile", origin: origin("adminTokenFile"),
                    message: "adminToken is set too (from \(origin("adminToken"))); set one of them")
            }
            let path = file.hasPrefix("/") ? file : (workingDirectory as NSString).appendingPathComponent(file)
            do { adminToken = try AdminTokenFile.read(path) } catch {
                throw ConfigurationError(
                    key: "adminTokenFile", origin: origin("adminTokenFile"), message: error.description)
            }
            return
        }
        guard adminToken == nil, let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
            return
        }
        let path = (directory as NSString).appendingPathComponent(AdminTokenFile.credentialName)
        // A service without that credential has none of this file; anything else at the path is read and checked.
        var status = stat()
        guard lstat(path, &status) == 0 || errno != ENOENT else { return }
        do { adminToken = try AdminTokenFile.read(path) } catch {
            throw ConfigurationError(
                key: "adminToken", origin: "the systemd credential \(AdminTokenFile.credentialName)",
                message: error.description)
        }
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
