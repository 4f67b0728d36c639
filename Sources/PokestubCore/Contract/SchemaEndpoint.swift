/// An API path a schema set describes, with the schema its answers must fit: from a schema file named
/// `index.json`, whose folder under the schema folder is the path under the API prefix.
///
/// PokeAPI's layout: `pokemon/index.json` describes `GET /api/v2/pokemon/` (the list), `pokemon/$id/index.json`
/// `GET /api/v2/pokemon/{id or name}/`, `pokemon/$id/encounters/index.json` `GET
/// /api/v2/pokemon/{id or name}/encounters`, and the top `index.json` `GET /api/v2/`. A folder named `$name`
/// or `{name}` stands for any one non-empty path segment; a trailing `/` on the request path does not matter
/// (pokeapi.co answers both forms).
package struct SchemaEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The endpoint's name in reports: its folder, `pokemon/$id`; `(root)` for the top `index.json`.
    package let name: String
    /// The schema file, relative to the schema folder: `pokemon/$id/index.json`.
    package let document: String
    private let segments: [Segment]

    private enum Segment: Sendable, Hashable {
        case literal(String)
        /// A variable, by its name without `$` or braces: `id`.
        case variable(String)
    }

    /// The endpoint of a schema file, or `nil` when the file is not an `index.json` (a shared definition such as
    /// `named_api_resource.json`, reached only through `$ref`).
    init?(document: String) {
        guard document == "index.json" || document.hasSuffix("/index.json") else { return nil }
        self.document = document
        let folder = document.dropLast("index.json".count)
        let trimmed = folder.hasSuffix("/") ? folder.dropLast() : folder
        name = trimmed.isEmpty ? "(root)" : String(trimmed)
        segments = trimmed.split(separator: "/").map { part in
            if part.hasPrefix("$") { return .variable(String(part.dropFirst())) }
            if part.hasPrefix("{") && part.hasSuffix("}") { return .variable(String(part.dropFirst().dropLast())) }
            return .literal(String(part))
        }
    }

    /// `pokemon/$id`.
    package var description: String { name }

    /// How many segments are literal: among endpoints that fit a path, the one with most wins.
    var literalCount: Int {
        segments.filter {
            if case .literal = $0 { return true }
            return false
        }.count
    }

    /// Whether the path segments under the API prefix fit.
    func matches(_ parts: [Substring]) -> Bool {
        guard parts.count == segments.count else { return false }
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text): if part != text { return false }
            case .variable: if part.isEmpty { return false }
            }
        }
        return true
    }

    /// The endpoint's path segments with a request's segments in place of its variables, where the request has a
    /// non-empty segment at that position, and `{name}` elsewhere: `pokemon/$id` with `["pokemons", "1"]` gives
    /// `["pokemon", "1"]`, with `[]` gives `["pokemon", "{id}"]`.
    func filled(with parts: [Substring]) -> [String] {
        segments.enumerated().map { position, segment in
            switch segment {
            case .literal(let text): return text
            case .variable(let name):
                return position < parts.count && !parts[position].isEmpty ? String(parts[position]) : "{\(name)}"
            }
        }
    }

    /// Paths of this endpoint to try a stub's URL regex or template on: each variable as `1` and as `a`, with
    /// and without the trailing `/`.
    func samplePaths(prefix: String) -> [String] {
        ["1", "a"].flatMap { value -> [String] in
            let path = segments.map { segment -> String in
                switch segment {
                case .literal(let text): text
                case .variable: value
                }
            }.joined(separator: "/")
            let full = prefix + path
            return full.hasSuffix("/") ? [full, String(full.dropLast())] : [full + "/", full]
        }
    }
}
