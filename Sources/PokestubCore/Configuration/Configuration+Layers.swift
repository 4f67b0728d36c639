import Foundation

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
}
