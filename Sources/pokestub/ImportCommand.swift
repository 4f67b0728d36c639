import Foundation
import PokestubCore
import PokestubDaemon

/// `pokestub import FILE.har [--stubs DIR] [--host NAME] [--dry-run]`: turns a HAR capture into stub mappings the way
/// recording does (``HARImport``), and prints one line per mapping: how it compares with the disk
/// (`new`, `changed`, `unchanged`), its path under the stub folder, and its body file.
enum ImportCommand {
    static let help = """
        Usage: pokestub import FILE.har [--stubs DIR] [--host NAME] [--dry-run]

        Turns every answered entry of the HAR capture FILE.har into a stub mapping, as
        recording the same exchange would: the same file names, redaction, body files and
        deduplication (the last entry for a request wins). Every entry is read as check
        reads stubs before anything is written; one that would not load stops the import.
        Writes atomically under DIR (mappings/ and __files/); a running pokestub watching
        DIR loads them. Stubs match paths, not hosts: when entries of two hosts would
        write the same stub, nothing is written and both are named; choose one host
        with --host.

        Options:
          --stubs DIR     the stub folder to write to; default the folder serve would use
          --config FILE   read the stubs folder, recording.* options and
                          globalResponseTemplating from this config file
          --host NAME     import only the entries whose URL has this host (with its
                          port if it has one, e.g. 127.0.0.1:8080)
          --dry-run       list what would be written, write nothing
          -h, --help      print this help

        """

    static func run(arguments: [String], environment: [String: String]) throws(CommandFailure) -> ExitStatus {
        let parsed = try ParsedArguments(
            arguments, valueOptions: ["config", "stubs", "host"], flagOptions: ["help", "dry-run"], command: "import")
        if parsed.flags.contains("help") {
            Console.out(help)
            return .success
        }
        guard parsed.positional.count == 1, let file = parsed.positional.first else {
            throw CommandFailure(status: .usage, message: "import takes one HAR file\n\n" + help)
        }
        let configuration: Configuration
        do {
            configuration = try Configuration.resolve(
                configFile: parsed.options["config"], environment: environment,
                flags: parsed.options["stubs"].map { ["stubs": $0] } ?? [:], readingAdminToken: false
            ).0
        } catch {
            throw CommandFailure(status: .configuration, message: error.description)
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure(status: .usage, message: "cannot read \(file)")
        }
        let writer = RecordingWriter(
            root: URL(fileURLWithPath: configuration.stubs, isDirectory: true),
            globalResponseTemplating: configuration.globalResponseTemplating)
        let dryRun = parsed.flags.contains("dry-run")
        let planned: [HARImport.Planned]
        do {
            planned = try HARImport(options: configuration.recording, host: parsed.options["host"]).plan(
                data, into: writer)
        } catch {
            throw CommandFailure(status: .dataError, message: "\(file): \(error.description)")
        }
        for item in planned {
            let change: RecordingWriter.Change
            if dryRun {
                change = item.change
            } else {
                // The user's own files: flushed to disk before the command says they are written.
                do { change = try writer.commit(item.checked, durability: .powerLoss).change } catch {
                    throw CommandFailure(status: .cannotCreate, message: error.description)
                }
            }
            var line = "\(change.rawValue) \(item.checked.file.path)"
            if let body = item.checked.file.bodyFile { line += " (body __files/\(body.name))" }
            Console.out(line)
        }
        let verb = dryRun ? "would write" : "wrote"
        let changed = planned.filter { $0.change != .unchanged }.count
        Console.out("\(configuration.stubs): \(verb) \(changed) of \(planned.count) mappings from \(file)")
        return .success
    }
}
