extension SchemaSet {
    /// The query parameters a list endpoint pages by: PokeAPI's `limit` and `offset`.
    static let pagingParameters = ["limit", "offset"]

    /// What a request nothing matched does wrong against the API's contract, one line each, for its near-miss
    /// answer (the 404's text and `GET /__admin/requests/unmatched/near-misses`); empty when nothing is.
    ///
    /// - A path under ``apiPrefix`` that no endpoint describes gets the closest endpoint, written with its
    ///   variables as `{id}` and with the request's own segments in their place:
    ///   `PokeAPI v2 has no endpoint /api/v2/pokemons/1; the closest is /api/v2/pokemon/{id}/ (/api/v2/pokemon/1/)`.
    ///   Closest is by edit distance between the path under the prefix and each endpoint's path with the request's
    ///   segments put in for its variables (``SchemaEndpoint/filled(with:)``); ties go to the endpoint first in
    ///   file path order.
    /// - A `limit` or `offset` that is not a whole number of 0 or more, on a list endpoint (one whose schema has
    ///   `count` and `results`): `PokeAPI v2 query parameter limit "-5" is not a whole number of 0 or more, …`.
    ///   PokeAPI's pagination takes only those: its own server (Django REST framework's
    ///   `LimitOffsetPagination`, whose `_positive_int` refuses anything else) answers the default page instead,
    ///   and pokeapi.co's deploy function (PokeAPI/deploy `functions_v1/src/index.js`) reads the value with
    ///   JavaScript's `parseInt`, so a negative number slices from the end of the list.
    ///
    /// Paths outside the prefix get no line. Edit distances share a budget (``Levenshtein/withBudget(cells:_:)``),
    /// so a long hostile path costs a bounded time.
    package func hints(for request: HTTPRequest) -> [String] {
        let path = request.normalizedPath
        guard isAPIPath(path) else { return [] }
        guard let endpoint = endpoint(forPath: path) else {
            return closestEndpointHint(forPath: path).map { [$0] } ?? []
        }
        guard isList(endpoint) else { return [] }
        var lines: [String] = []
        for name in SchemaSet.pagingParameters {
            for value in request.queryValues(name) where !SchemaSet.isWholeNumber(value) {
                lines.append(
                    "\(self.name) query parameter \(name) \(value.debugDescription) is not a whole number of 0 or "
                        + "more, as PokeAPI's pagination takes it: pokeapi.co reads it with JavaScript's parseInt "
                        + "and PokeAPI's own server answers the default page instead (limit 20, offset 0)")
            }
        }
        return lines
    }

    /// Whether an endpoint answers a list page: its schema, looking through `$ref`s (PokeAPI's lists are a
    /// `$ref` to `named_api_resource_list.json` or `api_resource_list.json`), has `count` and `results`.
    func isList(_ endpoint: SchemaEndpoint) -> Bool {
        var schema = documents[endpoint.document]
        for _ in 0..<SchemaValidator.maxReferenceDepth {
            guard let current = schema else { return false }
            if current.properties["count"] != nil && current.properties["results"] != nil { return true }
            guard let reference = current.reference else { return false }
            schema = target(of: reference, in: current.document)
        }
        return false
    }

    /// `1`, `20`, `007`: ASCII digits only, at least one.
    static func isWholeNumber(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The line naming the endpoint closest to a path under the prefix that no endpoint describes.
    private func closestEndpointHint(forPath path: String) -> String? {
        var rest = Substring(path.dropFirst(min(path.count, apiPrefix.count)))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let parts = rest.isEmpty ? [] : rest.split(separator: "/", omittingEmptySubsequences: false)
        let asked = parts.joined(separator: "/")
        let closest = Levenshtein.withBudget {
            endpoints.map { endpoint in
                (endpoint, Levenshtein.normalizedDistance(asked, endpoint.filled(with: parts).joined(separator: "/")))
            }
            .min { $0.1 < $1.1 }
        }
        guard let (endpoint, _) = closest else { return nil }
        let template = endpoint.filled(with: [])
        let example = endpoint.filled(with: parts)
        // pokeapi.co's canonical form ends in `/`; it answers without one too.
        func written(_ segments: [String]) -> String {
            apiPrefix + segments.joined(separator: "/") + (segments.isEmpty ? "" : "/")
        }
        var line = "\(name) has no endpoint \(path); the closest is \(written(template))"
        if example != template { line += " (\(written(example)))" }
        return line
    }
}
