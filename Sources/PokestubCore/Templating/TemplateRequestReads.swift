/// Which members of the `request` model (``TemplateRequestModel``) a template may read, found when it loads,
/// so that a request's model is built with those alone.
///
/// A member can be read only through a path naming it: a lookup by a name made while rendering (`lookup`,
/// `#each`, printing a map) needs the `request` map itself first, and a template reaches that only through a
/// path ending in `request`, or through the model's root, which a path without segments (`this`, `..`) reads
/// outside any block that pushes a context, or at any depth once it climbs out (`../this`). A template with
/// any such path reads every member. Otherwise the members it may read are the names of all its paths'
/// segments (more than it reads: `parameters.path` names `path` too), and a member left out is one no path
/// names, so no lookup misses it or walks past it.
struct TemplateRequestReads {
    /// The names of the segments of the template's paths.
    private(set) var names: Set<String> = []
    /// Whether the template may read the `request` map whole, or the root holding it.
    private(set) var readsAll = false

    /// The members of `request` that `nodes` may read; `nil` for all of them.
    static func members(of nodes: [TemplateNode]) -> Set<String>? {
        var reads = TemplateRequestReads()
        reads.visit(nodes, depth: 0)
        return reads.readsAll ? nil : reads.names
    }

    /// Visits `nodes`, which render within `depth` contexts pushed by blocks (`with`, `each`, a section).
    private mutating func visit(_ nodes: [TemplateNode], depth: Int) {
        for node in nodes {
            switch node {
            case .text: continue
            case .output(let expression, _): visit(expression, depth: depth)
            case .block(let block):
                visit(block.expression, depth: depth)
                switch block.kind {
                case .with, .each, .section: visit(block.body, depth: depth + 1)
                case .conditional, .unless, .assign, .trim, .helper: visit(block.body, depth: depth)
                }
                visit(block.inverse, depth: depth)
            }
        }
    }

    private mutating func visit(_ expression: TemplateExpression, depth: Int) {
        if !expression.isHelperCall { visit(expression.head, depth: depth) }
        for argument in expression.parameters + expression.hash.map(\.value) {
            switch argument {
            case .literal: continue
            case .path(let path): visit(path, depth: depth)
            case .call(let call): visit(call, depth: depth)
            }
        }
    }

    private mutating func visit(_ path: TemplatePath, depth: Int) {
        guard path.data == nil else { return }
        guard let last = path.segments.last else {
            if depth == 0 || path.parents > 0 { readsAll = true }
            return
        }
        if last.name == "request" { readsAll = true }
        for segment in path.segments { names.insert(segment.name) }
    }
}
