/// The admin API's route table: finds the ``AdminRoute`` for a method and a path under `/__admin/`, or tells a
/// path that exists under other methods (405) from one that does not exist (404).
///
/// Paths are matched segment by segment; where templates overlap, a literal segment wins over a parameter,
/// so `requests/count` is its own operation and never the serve event with id `count`. Templates are grouped
/// by their first segment, so a lookup compares a request with the few templates of its group only.
struct AdminRouter: Sendable {
    /// The outcome of a lookup.
    enum Match {
        /// The route for the method and path, with the path parameters its template took.
        case found(AdminRoute, parameters: [(name: String, value: String)])
        /// The path exists, but only for these methods (sorted).
        case methodNotAllowed(allowed: [String])
        /// No route has this path.
        case notFound
    }

    /// The routes that share one path template, by method.
    private struct Path: Sendable {
        let segments: [AdminRoute.Segment]
        var routes: [String: AdminRoute]

        /// The parameters this template takes from `path`, or `nil` when it does not match.
        func parameters(of path: [Substring]) -> [(name: String, value: String)]? {
            guard path.count == segments.count else { return nil }
            var parameters: [(name: String, value: String)] = []
            for (segment, part) in zip(segments, path) {
                switch segment {
                case .literal(let text): guard part == text else { return nil }
                case .parameter(let name): parameters.append((name, String(part)))
                }
            }
            return parameters
        }
    }

    /// Every route, in the order given.
    let routes: [AdminRoute]
    /// The templates by their first segment (always a literal), most specific first.
    private let paths: [String: [Path]]

    /// Builds the table.
    ///
    /// Traps on a table that contradicts itself: two routes for one method and path, two spellings of one
    /// path's parameters, or a template that starts with a parameter.
    init(_ routes: [AdminRoute]) {
        self.routes = routes
        var byShape: [String: Path] = [:]
        for route in routes {
            let shape = route.segments.map { segment -> String in
                if case .literal(let text) = segment { return text }
                return "{}"
            }.joined(separator: "/")
            var path = byShape[shape] ?? Path(segments: route.segments, routes: [:])
            precondition(path.segments == route.segments, "\(route.template) names its parameters differently")
            precondition(path.routes[route.method] == nil, "two admin routes for \(route.method) \(route.template)")
            path.routes[route.method] = route
            byShape[shape] = path
        }
        var paths: [String: [Path]] = [:]
        for path in byShape.values {
            guard case .literal(let first)? = path.segments.first else {
                preconditionFailure("an admin route's template must start with a literal segment")
            }
            paths[first, default: []].append(path)
        }
        self.paths = paths.mapValues { $0.sorted { AdminRouter.isMoreSpecific($0.segments, than: $1.segments) } }
    }

    /// Finds the route for `method` on the path `segments` (the path under `/__admin/`, split at `/`).
    func match(method: String, segments: [Substring]) -> Match {
        guard let first = segments.first, let candidates = paths[String(first)] else { return .notFound }
        for path in candidates {
            guard let parameters = path.parameters(of: segments) else { continue }
            guard let route = path.routes[method] else { return .methodNotAllowed(allowed: path.routes.keys.sorted()) }
            return .found(route, parameters: parameters)
        }
        return .notFound
    }

    /// Orders shorter templates first and, among templates of one length, a literal before a parameter at the
    /// first segment where they differ.
    private static func isMoreSpecific(_ left: [AdminRoute.Segment], than right: [AdminRoute.Segment]) -> Bool {
        guard left.count == right.count else { return left.count < right.count }
        for (a, b) in zip(left, right) {
            switch (a, b) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }
}
