import PokestubCore

extension ConfigurationKey {
    /// The configuration table of `Docs/Configuration.md`: one row per key with its `config.json` path,
    /// environment variable, flag and default, in Markdown, ending in a newline.
    ///
    /// A test keeps that page's table, between `<!-- configuration-table:begin -->` and
    /// `<!-- configuration-table:end -->`, equal to this text.
    ///
    /// - Parameter keys: The keys to list; every key by default.
    /// - Returns: The table's lines.
    public static func markdownTable(_ keys: [ConfigurationKey] = all) -> String {
        var lines = ["| key (`config.json`) | environment | flag | default |", "| --- | --- | --- | --- |"]
        for key in keys {
            lines.append(
                "| `\(key.path)` | `\(key.environmentVariable)` | `--\(key.flagName)` | \(key.markdownDefault) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The option list of `serve --help`, one entry per key: the flag with its placeholder, then what the key
    /// does and its default, wrapped under a description column.
    ///
    /// - Parameter keys: The keys to list; every key by default.
    /// - Returns: The lines, each ending in a newline.
    public static func helpOptions(_ keys: [ConfigurationKey] = all) -> String {
        keys.map { key in
            let option = key.isSwitch ? "--\(key.flagName)" : "--\(key.flagName) \(key.placeholder)"
            var description = key.summary
            if case .choice(let names) = key.kind { description += ": " + names.joined(separator: " | ") }
            if key.helpShowsDefault, let shown = key.helpDefault { description += " (default \(shown))" }
            return helpEntry(option: option, description: description)
        }.joined()
    }

    /// One entry of an option list as `serve --help` prints it: two spaces, the option in a 30-column field
    /// (on a line of its own when longer), and the description wrapped at `width` columns under column 33.
    ///
    /// - Parameters:
    ///   - option: The option with its placeholder (`--port PORT`).
    ///   - description: What it does.
    ///   - width: The longest line, in characters.
    /// - Returns: The entry's lines, each ending in a newline.
    public static func helpEntry(option: String, description: String, width: Int = 100) -> String {
        let indent = String(repeating: " ", count: 32)
        var text = "  " + option
        var line = ""
        if option.count < 30 {
            line = text + String(repeating: " ", count: 30 - option.count)
            text = ""
        } else {
            text += "\n"
            line = indent
        }
        var lineHasWord = false
        for word in description.split(separator: " ") {
            if lineHasWord && line.count + 1 + word.count > width {
                text += line + "\n"
                line = indent
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        return text + line + "\n"
    }

    /// The default as `Docs/Configuration.md` shows it: the value in code voice, or "none", then the note in brackets.
    var markdownDefault: String {
        let value: String
        switch defaultValue {
        case .null: value = "none"
        case .array(let items) where items.isEmpty: value = "none"
        case .array(let items): value = "`" + items.map(Self.plain).joined(separator: ", ") + "`"
        case let other: value = "`\(Self.plain(other))`"
        }
        return defaultNote.map { "\(value) (\($0))" } ?? value
    }

    /// The default as `serve --help` shows it, or `nil` when there is none.
    var helpDefault: String? {
        switch defaultValue {
        case .null: nil
        case .array(let items): items.map(Self.plain).joined(separator: ", ")
        case let other: Self.plain(other)
        }
    }

    /// A scalar as users write it: a string without quotes, anything else as JSON.
    private static func plain(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.serializedString()
    }
}
