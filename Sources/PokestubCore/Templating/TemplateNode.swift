/// One piece of a parsed response template (Handlebars syntax, as WireMock 2.35's Handlebars.java reads it).
indirect enum TemplateNode: Sendable {
    /// Literal text, copied as written.
    case text(String)
    /// `{{expression}}` (HTML-escaped) or `{{{expression}}}` / `{{& expression}}` (raw).
    case output(TemplateExpression, escaped: Bool)
    /// `{{#name params}}body{{else}}inverse{{/name}}`, or `{{^name}}…{{/name}}` with the parts swapped.
    case block(TemplateExpression, body: [TemplateNode], inverse: [TemplateNode])
}

/// A mustache's content: a helper call (`now format='yyyy'`) or a value lookup (`request.path`).
struct TemplateExpression: Sendable {
    /// The first word: a helper name or a path.
    var head: TemplatePath
    /// Positional parameters.
    var parameters: [TemplateArgument]
    /// `name=value` parameters, in the order written.
    var hash: [(name: String, value: TemplateArgument)]
    /// The expression as written, for error messages.
    var source: String
    /// The template line it starts on (1 is the first).
    var line: Int

    /// Whether the head names a helper: it has parameters or a hash, or it is a known helper's name.
    var isHelperCall: Bool {
        guard head.segments.count == 1, !head.isData else { return false }
        return !parameters.isEmpty || !hash.isEmpty || TemplateHelpers.names.contains(head.segments[0])
    }
}

/// A parameter: a literal, a path to look up, or a sub-expression in parentheses.
indirect enum TemplateArgument: Sendable {
    case string(String)
    case number(TemplateNumber)
    case bool(Bool)
    case null
    case path(TemplatePath)
    case call(TemplateExpression)
}

/// A dotted path (`request.pathSegments.[1]`, `this`, `../name`, `@index`).
struct TemplatePath: Sendable {
    /// The segments after `this` and `..` are taken off; `[1]` is kept as `1`.
    var segments: [String]
    /// How many contexts up the lookup starts (`../`).
    var parents: Int
    /// Whether it names a data variable (`@index`, `@key`, `@first`, `@last`).
    var isData: Bool
    /// Whether it starts at the current context explicitly (`this`, `.`, `./`): no walking up to parents.
    var isExplicit: Bool
}
