import Foundation
import PokestubCore
import PokestubDaemon

/// `pokestub check [DIR]`: loads a stub folder the way the server does and prints every problem as
/// `path:line: message`. Exits 1 when there is any.
enum CheckCommand {
    static let help = """
        Usage: pokestub check [DIR]

        Validates the stub folder DIR: every mappings/**/*.json file and every body file it
        names. Prints each problem as path:line: message and exits 1 when there is any, 0
        otherwise. Without DIR, checks the folder serve would use: $POKESTUB_STUBS, else the
        config file's stubs, else stubs beside the config file, else ./stubs.

        Options:
          --config FILE   read the stubs folder and globalResponseTemplating from this config file
          -h, --help      print this help

        """

    static func run(arguments: [String], environment: [String: String]) throws(CommandFailure) -> ExitStatus {
        let parsed = try ParsedArguments(arguments, valueOptions: ["config"], flagOptions: ["help"], command: "check")
        if parsed.flags.contains("help") {
            Console.out(help)
            return .success
        }
        guard parsed.positional.count <= 1 else {
            throw CommandFailure(status: .usage, message: "check takes at most one folder")
        }
        // The configuration also says whether every stub is a response template (globalResponseTemplating),
        // which decides whether `{{…}}` in a stub must parse.
        let configuration: Configuration
        do {
            configuration = try Configuration.resolve(
                configFile: parsed.options["config"], environment: environment, flags: [:], readingAdminToken: false
            ).0
        } catch {
            throw CommandFailure(status: .configuration, message: error.description)
        }
        let root = parsed.positional.first ?? configuration.stubs
        let result = StubLoader(root: root, globalResponseTemplating: configuration.globalResponseTemplating).load()
        for problem in result.problems { Console.out(problem.description) }
        if result.problems.isEmpty {
            Console.out("\(root): \(result.stubs.count) stubs in \(result.fileCount) files, no problems")
            return .success
        }
        Console.out("\(root): \(result.problems.count) problem(s)")
        return .problemsFound
    }
}
