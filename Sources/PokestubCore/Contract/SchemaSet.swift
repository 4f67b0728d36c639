import Foundation

/// The schemas of an API: schema files by their path in a schema folder, and the endpoints they describe
/// (``SchemaEndpoint``). What `pokestub check --schema` checks stub bodies against, and what the daemon checks
/// upstream answers against while recording or proxying.
///
/// ``pokeAPI`` is PokeAPI v2's, built into pokestub (``PokeAPISchemas``). Another API's come from a folder laid
/// out the same way (``load(folder:apiPrefix:)``): an `index.json` per endpoint folder, shared definitions in
/// other `.json` files, `$ref`s naming files of the folder.
///
/// A `$ref` names a whole schema file (a `#` fragment other than an empty one is not in the subset): relative to
/// the referring file's folder (`../named_api_resource.json`), or by an absolute path or URL whose longest
/// trailing part names a file of the folder (PokeAPI writes `/schema/v2/named_api_resource.json` for the folder's
/// `named_api_resource.json`). Every `$ref` must resolve when the set is made.
package struct SchemaSet: Sendable {
    /// What the set is called in reports: `PokeAPI v2`, or the folder it was read from.
    package let name: String
    /// The path every endpoint lies under, with its trailing `/`: `/api/v2/`.
    package let apiPrefix: String
    /// The schemas by file path relative to the schema folder (`pokemon/$id/index.json`).
    package let documents: [String: JSONSchema]
    /// The endpoints, in file path order.
    package let endpoints: [SchemaEndpoint]
    /// The file each `$ref` resolves to, by the referring file and the reference (``referenceKey(_:in:)``).
    private let targets: [String: String]

    /// PokeAPI v2's schemas, as pokestub ships them (``PokeAPISchemas``), under `/api/v2/`.
    package static let pokeAPI: SchemaSet = {
        do {
            return try SchemaSet(
                files: PokeAPISchemas.files.map { ($0.path, Data($0.json.utf8)) }, name: "PokeAPI v2",
                apiPrefix: "/api/v2/")
        } catch {
            preconditionFailure("the shipped PokeAPI schemas do not read: \(error)")
        }
    }()

    /// Makes a set from schema files.
    ///
    /// - Parameters:
    ///   - files: Each file's path relative to the schema folder (`pokemon/$id/index.json`) and its bytes.
    ///   - name: What reports call the set.
    ///   - apiPrefix: The path the endpoints lie under, such as `/api/v2/` (a missing trailing `/` is added).
    /// - Throws: ``JSONSchemaError`` for a file that is not JSON, a schema outside the subset, or a `$ref` that
    ///   names no file of the set.
    package init(files: [(path: String, data: Data)], name: String, apiPrefix: String) throws(JSONSchemaError) {
        var documents: [String: JSONSchema] = [:]
        for (path, data) in files {
            let json: JSONValue
            do { json = try JSONValue.parse(data) } catch {
                throw JSONSchemaError(document: path, location: [], message: "not JSON: \(error.message)")
            }
            documents[path] = try JSONSchema(json: json, document: path)
        }
        var targets: [String: String] = [:]
        for (path, schema) in documents {
            for reference in schema.references {
                guard let target = SchemaSet.resolve(reference, from: path, among: documents) else {
                    throw JSONSchemaError(
                        document: path, location: [],
                        message: "$ref \(reference) names no schema file of the set (or is not a whole file)")
                }
                targets[SchemaSet.referenceKey(reference, in: path)] = target
            }
        }
        self.name = name
        self.apiPrefix = apiPrefix.hasSuffix("/") ? apiPrefix : apiPrefix + "/"
        self.documents = documents
        self.targets = targets
        endpoints = documents.keys.sorted().compactMap(SchemaEndpoint.init(document:))
    }

    /// Reads every `.json` file under a folder (hidden files and folders skipped).
    ///
    /// - Parameters:
    ///   - folder: The schema folder, laid out as PokeAPI's `schema/v2`.
    ///   - apiPrefix: The path the endpoints lie under.
    /// - Throws: ``JSONSchemaError`` as ``init(files:name:apiPrefix:)``, or when the folder cannot be read.
    package static func load(folder: String, apiPrefix: String) throws(JSONSchemaError) -> SchemaSet {
        let base = URL(fileURLWithPath: folder)
        guard
            let enumerator = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else {
            throw JSONSchemaError(document: folder, location: [], message: "cannot read the schema folder")
        }
        let basePath = base.standardizedFileURL.resolvingSymlinksInPath().path
        var files: [(path: String, data: Data)] = []
        for case let url as URL in enumerator where url.pathExtension == "json" {
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard path.hasPrefix(basePath + "/") else { continue }
            do {
                files.append((String(path.dropFirst(basePath.count + 1)), try Data(contentsOf: url)))
            } catch {
                throw JSONSchemaError(document: path, location: [], message: "cannot read: \(error)")
            }
        }
        guard !files.isEmpty else {
            throw JSONSchemaError(document: folder, location: [], message: "holds no .json schema files")
        }
        return try SchemaSet(files: files, name: folder, apiPrefix: apiPrefix)
    }

    /// Whether a path lies under the API prefix (`/api/v2/…`, or `/api/v2` itself).
    package func isAPIPath(_ path: String) -> Bool {
        path.hasPrefix(apiPrefix) || path == String(apiPrefix.dropLast())
    }

    /// The endpoint of a request path (in normal form, without the query), or `nil` when no schema describes
    /// it. Where several fit, the one with more literal segments wins.
    package func endpoint(forPath path: String) -> SchemaEndpoint? {
        guard isAPIPath(path) else { return nil }
        var rest = path.dropFirst(min(path.count, apiPrefix.count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let parts = rest.isEmpty ? [] : rest.split(separator: "/", omittingEmptySubsequences: false)
        return endpoints.filter { $0.matches(parts) }.max { $0.literalCount < $1.literalCount }
    }

    /// The endpoints a stub's URL pattern answers: for `url` and `urlPath`, the one of its path; for a regex or
    /// a path template, each whose sample paths (``SchemaEndpoint/samplePaths(prefix:)``) it matches, with the
    /// sample path it matched.
    func endpoints(answeredBy pattern: URLPattern) -> [(endpoint: SchemaEndpoint, path: String)] {
        if let path = pattern.literalPath {
            return endpoint(forPath: path).map { [($0, path)] } ?? []
        }
        var found: [(endpoint: SchemaEndpoint, path: String)] = []
        for endpoint in endpoints {
            if let path = endpoint.samplePaths(prefix: apiPrefix).first(where: {
                pattern.matches(HTTPRequest(method: "GET", rawURL: $0))
            }) {
                found.append((endpoint, path))
            }
        }
        return found
    }

    /// Where `value` does not fit the endpoint's schema.
    ///
    /// - Parameters:
    ///   - value: An answer's body.
    ///   - endpoint: One of ``endpoints``.
    ///   - limit: How many violations to keep; the rest are counted.
    /// - Returns: The violations (empty when the value fits) and how many more there were.
    package func violations(
        of value: JSONValue, against endpoint: SchemaEndpoint, limit: Int = 50
    ) -> (violations: [SchemaViolation], omitted: Int) {
        guard let schema = documents[endpoint.document] else { return ([], 0) }
        var validator = SchemaValidator(schemas: self, limit: limit)
        validator.check(value, schema)
        return (validator.violations, validator.omitted)
    }

    /// The schema a `$ref` of a file resolves to.
    func target(of reference: String, in document: String) -> JSONSchema? {
        targets[SchemaSet.referenceKey(reference, in: document)].flatMap { documents[$0] }
    }

    /// The types a schema allows, looking through `$ref`s and `anyOf`; `nil` for any.
    func types(of schema: JSONSchema, depth: Int = 0) -> [JSONSchemaType]? {
        if let types = schema.types { return types }
        if let reference = schema.reference, depth < SchemaValidator.maxReferenceDepth,
            let target = target(of: reference, in: schema.document)
        {
            return types(of: target, depth: depth + 1)
        }
        guard !schema.anyOf.isEmpty else { return nil }
        var union: [JSONSchemaType] = []
        for branch in schema.anyOf {
            guard let types = types(of: branch, depth: depth + 1) else { return nil }
            union += types.filter { !union.contains($0) }
        }
        return union
    }

    private static func referenceKey(_ reference: String, in document: String) -> String {
        document + "\n" + reference
    }

    /// The file a `$ref` names, or `nil`.
    private static func resolve(
        _ reference: String, from document: String, among documents: [String: JSONSchema]
    ) -> String? {
        var text = Substring(reference)
        if let hash = text.firstIndex(of: "#") {
            guard text.index(after: hash) == text.endIndex else { return nil }
            text = text[..<hash]
        }
        if let scheme = text.range(of: "://") {
            let afterScheme = text[scheme.upperBound...]
            text = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
        }
        if text.hasPrefix("/") {
            let parts = text.split(separator: "/")
            for start in parts.indices {
                let candidate = parts[start...].joined(separator: "/")
                if documents[candidate] != nil { return candidate }
            }
            return nil
        }
        var parts = document.split(separator: "/").dropLast().map(String.init)
        for part in text.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if parts.popLast() == nil { return nil }
            default: parts.append(String(part))
            }
        }
        let candidate = parts.joined(separator: "/")
        return documents[candidate] != nil ? candidate : nil
    }
}
