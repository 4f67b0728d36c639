/// One piece of a parsed response template (Handlebars syntax, as WireMock 2.35's Handlebars.java reads it),
/// resolved when the template loads so that rendering looks no name up: helpers are bound to a
/// ``TemplateHelper`` case, blocks to a ``TemplateBlockKind``, data variables to a ``TemplateDataName``,
/// paths are split into segments with their list indexes read, literals are made values, and the text
/// between two mustaches (comments and `\{{` escapes included) is one node.
enum TemplateNode: Sendable {
    /// Literal text, copied as written.
    case text(String)
    /// `{{expression}}` (HTML-escaped) or `{{{expression}}}` / `{{& expression}}` (raw).
    case output(TemplateExpression, escaped: Bool)
    /// `{{#name params}}body{{else}}inverse{{/name}}`, or `{{^name}}…{{/name}}` with the parts swapped.
    case block(TemplateBlock)
}

/// A block with its kind, expression and parts.
final class TemplateBlock: Sendable {
    /// What the block does, from its head.
    let kind: TemplateBlockKind
    /// The block's opening expression (`each parameters.results`).
    let expression: TemplateExpression
    /// What renders when the block's condition holds (for `{{^name}}`, when it does not).
    let body: [TemplateNode]
    /// The `{{else}}` part.
    let inverse: [TemplateNode]
    /// For `#each`, the slots of the loop-invariant calls in its body (``TemplateLoopInvariants``), emptied
    /// each time the loop starts; empty for other blocks.
    let invariantSlots: Range<Int>

    init(_ expression: TemplateExpression, body: [TemplateNode], inverse: [TemplateNode]) {
        self.kind = TemplateBlockKind(path: expression.head, helper: expression.helper)
        self.expression = expression
        self.body = body
        self.inverse = inverse
        self.invariantSlots = 0..<0
    }

    /// `block` with its parts replaced, as ``TemplateLoopInvariants`` marks them.
    init(
        _ block: TemplateBlock, expression: TemplateExpression, body: [TemplateNode], inverse: [TemplateNode],
        invariantSlots: Range<Int>
    ) {
        self.kind = block.kind
        self.expression = expression
        self.body = body
        self.inverse = inverse
        self.invariantSlots = invariantSlots
    }
}

/// What a block (`{{#name …}}…{{/name}}`) does, decided when the template is parsed from its head.
enum TemplateBlockKind: Sendable {
    /// `{{#if x}}`: the body when the first parameter is true, else the inverse.
    case conditional
    /// `{{#unless x}}`: the inverse when the first parameter is true, else the body.
    case unless
    /// `{{#with x}}`: the body within the first parameter when it is true.
    case with
    /// `{{#each x}}`: the body once per element, with `@index`, `@first`, `@last` and `@key`.
    case each
    /// `{{#assign 'name'}}`: the body's text kept as the variable `name`.
    case assign
    /// `{{#trim}}`: the body's text without leading and trailing white space.
    case trim
    /// A helper's block form: its result, or for a true or false result the body or the inverse.
    case helper(TemplateHelper)
    /// A section over a value (Mustache): lists repeat the body, a true value renders it once within it.
    case section

    /// The kind for a block whose head is `path` and whose expression calls `helper` (when it is a call).
    init(path: TemplatePath, helper: TemplateHelper?) {
        switch path.blockName {
        case "if": self = .conditional
        case "unless": self = .unless
        case "with": self = .with
        case "each": self = .each
        case "assign": self = .assign
        case "trim": self = .trim
        default: self = helper.map { .helper($0) } ?? .section
        }
    }

    /// The block names that are not helpers: `if`, `unless`, `each`, `with` and `assign`.
    static let names: Set<String> = ["if", "unless", "each", "with", "assign"]
}

/// A mustache's content: a helper call (`now format='yyyy'`) or a value lookup (`request.path`).
final class TemplateExpression: Sendable {
    /// The first word: a helper name or a path.
    let head: TemplatePath
    /// The helper called, bound when parsed; `nil` for a value lookup (and for the block names `if`,
    /// `unless`, `each`, `with` and `assign`, which ``TemplateBlockKind`` handles).
    let helper: TemplateHelper?
    /// Positional parameters.
    let parameters: [TemplateArgument]
    /// `name=value` parameters, in the order written.
    let hash: [(name: String, value: TemplateArgument)]
    /// The expression as written, for error messages.
    let source: String
    /// The template line it starts on (1 is the first).
    let line: Int
    /// Whether the head names a helper: it is one plain word, and it has parameters or a hash or is a known
    /// helper's name.
    let isHelperCall: Bool
    /// For a call whose value is the same in every iteration of the `#each` around it, its slot
    /// (``TemplateLoopInvariants``); `nil` for any other.
    let invariant: TemplateInvariant?

    init(
        head: TemplatePath, parameters: [TemplateArgument], hash: [(name: String, value: TemplateArgument)],
        source: String, line: Int
    ) {
        self.head = head
        self.parameters = parameters
        self.hash = hash
        self.source = source
        self.line = line
        self.invariant = nil
        // A helper call: the head is one plain word, and it has parameters or a hash or names a helper.
        if let name = head.blockName, !parameters.isEmpty || !hash.isEmpty || TemplateHelper(rawValue: name) != nil {
            helper = TemplateHelper(rawValue: name)
            isHelperCall = true
        } else {
            helper = nil
            isHelperCall = false
        }
    }

    /// `expression` with its head and arguments replaced and `invariant` set, as ``TemplateLoopInvariants``
    /// marks it.
    init(
        _ expression: TemplateExpression, head: TemplatePath? = nil, parameters: [TemplateArgument],
        hash: [(name: String, value: TemplateArgument)], invariant: TemplateInvariant?
    ) {
        self.head = head ?? expression.head
        self.helper = expression.helper
        self.parameters = parameters
        self.hash = hash
        self.source = expression.source
        self.line = expression.line
        self.isHelperCall = expression.isHelperCall
        self.invariant = invariant
    }
}

/// Where the renderer keeps a loop-invariant call's value (and the steps it took) while its loop runs.
struct TemplateInvariant: Sendable {
    /// The call's place in the renderer's store, unique within its template.
    let slot: Int
    /// The first segments of the paths the call reads by walking out from the loop's element: the kept value
    /// holds in an iteration whose element has no member of any of these names.
    let elementNames: [TemplatePathSegment]
}

/// A parameter: a literal (made a value once, when parsed), a path to look up, or a sub-expression in
/// parentheses.
enum TemplateArgument: Sendable {
    case literal(TemplateValue)
    case path(TemplatePath)
    case call(TemplateExpression)

    /// Whether it is a sub-expression.
    var isCall: Bool {
        if case .call = self { return true }
        return false
    }
}

/// A dotted path (`request.pathSegments.[1]`, `this`, `../name`, `@index`).
struct TemplatePath: Sendable {
    /// The segments after `this` and `..` are taken off; `[1]` is kept as `1`.
    let segments: [TemplatePathSegment]
    /// How many contexts up the lookup starts (`../`).
    let parents: Int
    /// For a data variable (`@index`, `@key`, `@first`, `@last`), which one; `nil` for other paths.
    let data: TemplateDataName?
    /// Whether it starts at the current context explicitly (`this`, `.`, `./`): no walking up to parents.
    let isExplicit: Bool
    /// For a path whose value is the same in every iteration of the `#each` around it (it starts in an
    /// enclosing context, `../`), its slot in the renderer's store (``TemplateLoopInvariants``); `nil` for
    /// any other.
    private(set) var invariantSlot: Int?

    init(segments: [String], parents: Int, isData: Bool, isExplicit: Bool) {
        self.segments = segments.map(TemplatePathSegment.init)
        self.parents = parents
        self.data = isData ? TemplateDataName(segments.first) : nil
        self.isExplicit = isExplicit
        self.invariantSlot = nil
    }

    /// This path with its value kept in `slot` while its loop runs.
    func invariant(slot: Int) -> TemplatePath {
        var path = self
        path.invariantSlot = slot
        return path
    }

    /// Whether it names a data variable.
    var isData: Bool { data != nil }

    /// The one word a helper or block name is: the single segment of a path that is not a data variable.
    var blockName: String? { segments.count == 1 && data == nil ? segments[0].name : nil }

    /// The path as written after `this` and `..`, segments joined with `.`.
    var dottedName: String { segments.map(\.name).joined(separator: ".") }
}

/// One segment of a ``TemplatePath``, with what looking it up needs worked out once. A class, so that a
/// lookup passes it on with one reference count, not one per string it holds.
final class TemplatePathSegment: Sendable {
    /// The segment as written (`name`, or `1` for `[1]`).
    let name: String
    /// The segment read as an index (Swift's `Int(_:)`), for lists; `nil` when it is not a number.
    let index: Int?
    /// The segment lower-cased, for maps whose keys ignore case (request headers).
    let folded: String

    init(_ name: String) {
        self.name = name
        self.index = Int(name)
        self.folded = name.lowercased()
    }
}

/// The data variables `#each` sets, resolved from a path's first segment after `@`.
enum TemplateDataName: Sendable {
    /// `@index`: the element's position, from 0.
    case index
    /// `@first`: whether it is the first element.
    case first
    /// `@last`: whether it is the last element.
    case last
    /// `@key`: the member's name, for a map or a JSON object.
    case key
    /// Any other name (or none): no block sets it, so it is always null.
    case unknown

    init(_ segment: String?) {
        switch segment {
        case "index": self = .index
        case "first": self = .first
        case "last": self = .last
        case "key": self = .key
        default: self = .unknown
        }
    }
}
