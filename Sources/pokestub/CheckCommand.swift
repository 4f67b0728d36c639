import Foundation
import PokestubCore
import PokestubDaemon

/// `pokestub check [--schema] [--strict] [DIR]`: loads a stub folder the way the server does and prints every
/// problem as `path:line: message` and every warning (a stub `serve` loads to answer 500, ``StubLoader``) as
/// `path:line: warning: message`; with `--schema`, also every stub body that does not fit its endpoint's JSON
/// Schema (``StubSchemaCheck``). Exits 1 when there is any problem; with `--strict` (or config `strict`) a
/// warning is a problem. A test WireMock 2.35.1 refuses to load (``WireMockLoadCheck``) is a warning either way.
enum CheckCommand {
    static let help = """
        Usage: pokestub check [--schema] [--strict] [DIR]

        Validates the stub folder DIR: every mappings/**/*.json file and every body file it
        names. Prints each problem as path:line: message and exits 1 when there is any, 0
        otherwise. Without DIR, checks the folder serve would use: $POKESTUB_STUBS, else the
        config file's stubs, else stubs beside the config file, else ./stubs.

        A stub that WireMock 2.35 loads and fails on only when it is hit (a feature pokestub
        lacks, a template that does not parse, a body file that is missing or outside
        __files) is a warning, path:line: warning: message: serve loads it and it answers 500
        naming the problem. Warnings alone exit 0; with --strict (or the config's strict)
        they are problems, as serve --strict refuses them. A request test that pokestub
        serves as written but WireMock 2.35.1 refuses to load (absent inside and/or) is a
        warning too, with or without --strict.

        With --schema, also checks every stub for a path under /api/v2/ against PokeAPI's JSON
        Schema for that endpoint (built into pokestub): inline bodies, body files and templated
        bodies (rendered for a sample request). A body that does not fit is reported as
        path:line: response body $.stats[0].base_stat: expected integer, got string (schema pokemon/$id)

        Options:
          --config FILE       read the stubs folder and globalResponseTemplating from this config file
          --schema            check stub bodies against the API's JSON Schemas
          --strict            report warnings as problems (exit 1), as serve --strict refuses them
          --schemas DIR       with --schema: read the schemas from DIR (laid out as PokeAPI's schema/v2:
                              an index.json per endpoint folder, $id for a path segment) instead
          --api-prefix PATH   with --schemas: the path the schemas' endpoints lie under (default /api/v2/)
          -h, --help          print this help

        """

    static func run(arguments: [String], environment: [String: String]) throws(CommandFailure) -> ExitStatus {
        let parsed = try ParsedArguments(
            arguments, valueOptions: ["config", "schemas", "api-prefix"], flagOptions: ["help", "schema", "strict"],
            command: "check")
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
        let schemas = try schemaSet(parsed)
        let root = parsed.positional.first ?? configuration.stubs
        let strict = parsed.flags.contains("strict") || configuration.strict
        let result = StubLoader(
            root: root, globalResponseTemplating: configuration.globalResponseTemplating, strict: strict
        ).load()
        var problems = result.problems
        var schemaSummary = ""
        if let schemas {
            let report = StubSchemaCheck(schemas: schemas, root: root).check(result.stubs)
            problems += report.problems
            schemaSummary =
                ", \(report.checkedStubs) checked against \(schemas.name) schemas (\(report.checkedBodies) bodies)"
        }
        for problem in problems { Console.out(problem.description) }
        let wireMockWarnings = WireMockLoadCheck.warnings(in: result.stubs, root: root)
        for warning in result.warnings + wireMockWarnings {
            Console.out(
                StubLoadProblem(path: warning.path, line: warning.line, message: "warning: " + warning.message)
                    .description)
        }
        var warnings =
            result.warnings.isEmpty
            ? "" : ", \(result.warnings.count) warning(s) (stubs that answer 500 naming them; --strict refuses them)"
        if !wireMockWarnings.isEmpty {
            warnings +=
                ", \(wireMockWarnings.count) warning(s) (tests WireMock 2.35.1 refuses to load; served as written)"
        }
        if problems.isEmpty {
            Console.out(
                "\(root): \(result.stubs.count) stubs in \(result.fileCount) files\(schemaSummary), no problems"
                    + warnings)
            return .success
        }
        Console.out("\(root): \(problems.count) problem(s)\(schemaSummary)\(warnings)")
        return .problemsFound
    }

    /// The schemas `--schema` checks against: PokeAPI's, or the folder `--schemas` names; `nil` without `--schema`.
    private static func schemaSet(_ parsed: ParsedArguments) throws(CommandFailure) -> SchemaSet? {
        let folder = parsed.options["schemas"]
        guard parsed.flags.contains("schema") else {
            guard folder == nil, parsed.options["api-prefix"] == nil else {
                throw CommandFailure(status: .usage, message: "--schemas and --api-prefix go with --schema")
            }
            return nil
        }
        guard let folder else {
            guard parsed.options["api-prefix"] == nil else {
                throw CommandFailure(status: .usage, message: "--api-prefix goes with --schemas")
            }
            return .pokeAPI
        }
        do {
            return try SchemaSet.load(folder: folder, apiPrefix: parsed.options["api-prefix"] ?? "/api/v2/")
        } catch {
            throw CommandFailure(status: .configuration, message: "schemas: \(error.description)")
        }
    }
}
