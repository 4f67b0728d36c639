/// Splits `--name value`, `--name=value` and positional arguments, checking names against what a command
/// accepts. Small on purpose: pokestub has two commands and a handful of flags.
struct ParsedArguments {
    var options: [String: String] = [:]
    var flags: Set<String> = []
    var positional: [String] = []

    /// Parses arguments.
    ///
    /// - Parameters:
    ///   - valueOptions: Options that take a value (without `--`).
    ///   - flagOptions: Options that take none.
    /// - Throws: ``CommandFailure`` with status 64 for an unknown option or a missing value.
    init(
        _ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>, command: String
    ) throws(CommandFailure) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            if argument == "-h" {
                flags.insert("help")
                continue
            }
            guard argument.hasPrefix("--") else {
                throw CommandFailure(
                    status: .usage, message: "unknown option \(argument) (see pokestub \(command) --help)")
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagOptions.contains(name) {
                guard value == nil else {
                    throw CommandFailure(status: .usage, message: "--\(name) takes no value")
                }
                flags.insert(name)
            } else if valueOptions.contains(name) {
                guard let given = value ?? iterator.next() else {
                    throw CommandFailure(status: .usage, message: "--\(name) needs a value")
                }
                options[name] = given
            } else {
                throw CommandFailure(
                    status: .usage, message: "unknown option --\(name) (see pokestub \(command) --help)")
            }
        }
    }
}
