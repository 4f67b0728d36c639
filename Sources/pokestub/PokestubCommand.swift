import Foundation
import PokestubCore

/// The `pokestub` command: dispatches to `serve`, `check`, `import` or `make-token`, prints help and version, and maps failures to
/// exit statuses in one place.
enum PokestubCommand {
    static let usage = """
        pokestub \(PokestubVersion.current): a stub and record/replay server for PokeAPI

        Usage:
          pokestub serve [options]     answer HTTP requests from stubs (see pokestub serve --help)
          pokestub check [DIR]         validate a stub folder and report problems as path:line: message
          pokestub import FILE.har     turn a HAR capture into stubs as recording would (--stubs, --dry-run)
          pokestub make-token FILE     make an admin token file unless there is one (--group GROUP)
          pokestub --version           print the version
          pokestub --help              print this help

        """

    static func run(arguments: [String], environment: [String: String]) -> ExitStatus {
        do throws(CommandFailure) {
            guard let command = arguments.first else {
                throw CommandFailure(status: .usage, message: "missing command\n\n" + usage)
            }
            let rest = Array(arguments.dropFirst())
            switch command {
            case "serve":
                return try ServeCommand.run(arguments: rest, environment: environment)
            case "check":
                return try CheckCommand.run(arguments: rest, environment: environment)
            case "import":
                return try ImportCommand.run(arguments: rest, environment: environment)
            case "make-token":
                return try MakeTokenCommand.run(arguments: rest)
            case "--version", "version":
                Console.out(PokestubVersion.current)
                return .success
            case "--help", "-h", "help":
                Console.out(usage)
                return .success
            default:
                throw CommandFailure(status: .usage, message: "unknown command \(command.debugDescription)\n\n" + usage)
            }
        } catch {
            Console.error("pokestub: \(error.message)")
            return error.status
        }
    }
}
