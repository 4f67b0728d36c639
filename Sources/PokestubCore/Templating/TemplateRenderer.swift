import Foundation

/// Renders a parsed template over a model, as Handlebars.java does for WireMock 2.35, within a
/// ``TemplateBudget``.
///
/// Lookups start in the current context and walk out through the enclosing ones (Handlebars.java's
/// default), then the variables set with `assign` or `regexExtract`. `{{…}}` output is HTML-escaped with
/// Handlebars.java's table (`& < > " ' \` =`); `{{{…}}}` is not.
struct TemplateRenderer {
    private struct Frame {
        var context: TemplateValue
        var data: [String: TemplateValue] = [:]
    }

    private var frames: [Frame]
    /// Variables set by `assign` and `regexExtract`'s third parameter, visible to every later lookup.
    var variables: [String: TemplateValue] = [:]
    /// The random source for `randomValue` and `randomInt`.
    var random = SystemRandomNumberGenerator()
    /// What this request's templates have spent so far; every node, iteration and helper draws from it.
    var budget: TemplateBudget
    /// The JSON text `jsonPath` parsed last, and what it read, so a loop over the request body's values
    /// parses the body once.
    var lastParsedJSON: (text: String, document: JSONDocument?)?

    init(model: TemplateValue, budget: TemplateBudget) {
        frames = [Frame(context: model)]
        self.budget = budget
    }

    mutating func render(_ nodes: [TemplateNode]) throws(TemplateRenderError) -> String {
        var output = ""
        for node in nodes {
            switch node {
            case .text(let text):
                try budget.step()
                try append(text, to: &output)
            case .output(let expression, let escaped):
                do {
                    try budget.step()
                    let text = try self.text(of: try evaluate(expression))
                    try append(escaped ? try escape(text) : text, to: &output)
                } catch {
                    throw error.at(expression)
                }
            case .block(let expression, let body, let inverse):
                do {
                    try budget.step()
                    try append(try renderBlock(expression, body: body, inverse: inverse), to: &output)
                } catch {
                    throw error.at(expression)
                }
            }
        }
        return output
    }

    /// Appends `piece` to `output` when the result stays within ``TemplateLimits/maxBytes``.
    private func append(_ piece: String, to output: inout String) throws(TemplateRenderError) {
        try budget.allow(bytes: output.utf8.count + piece.utf8.count)
        output += piece
    }

    /// The text `value` prints (``TemplateValue/text``), made within the budget: a JSON container's text is
    /// cut off as soon as it passes ``TemplateLimits/maxBytes``, other values' text (bounded by the request
    /// and the stub) is checked once made. Reading or making it takes its bytes' steps.
    mutating func text(of value: TemplateValue) throws(TemplateRenderError) -> String {
        let text: String
        switch value {
        case .string(let string):
            text = string
        case .json(let json):
            guard let printed = JacksonText.text(of: json, limit: budget.limits.maxBytes) else {
                throw TemplateBudget.tooLarge(budget.limits.maxBytes)
            }
            text = printed
        default:
            text = value.text
            try budget.allow(bytes: text.utf8.count)
        }
        try budget.process(bytes: text.utf8.count)
        return text
    }

    // MARK: Blocks

    private mutating func renderBlock(
        _ expression: TemplateExpression, body: [TemplateNode], inverse: [TemplateNode]
    )
        throws(TemplateRenderError) -> String
    {
        let name = expression.head.segments.count == 1 && !expression.head.isData ? expression.head.segments[0] : ""
        let parameters = try expression.parameters.map { (argument) throws(TemplateRenderError) in
            try value(of: argument)
        }
        switch name {
        case "if":
            return try parameters.first?.isTruthy == true ? render(body) : render(inverse)
        case "unless":
            return try parameters.first?.isTruthy == true ? render(inverse) : render(body)
        case "with":
            guard let context = parameters.first, context.isTruthy else { return try render(inverse) }
            return try within(context) { (renderer) throws(TemplateRenderError) in try renderer.render(body) }
        case "each":
            let elements = parameters.first?.elements ?? []
            guard !elements.isEmpty else { return try render(inverse) }
            var output = ""
            for (index, element) in elements.enumerated() {
                try budget.step()
                var data: [String: TemplateValue] = [
                    "index": .number(TemplateNumber(index)), "first": .bool(index == 0),
                    "last": .bool(index == elements.count - 1),
                ]
                if let key = element.key { data["key"] = .string(key) }
                let piece = try within(element.value, data: data) { (renderer) throws(TemplateRenderError) in
                    try renderer.render(body)
                }
                try append(piece, to: &output)
            }
            return output
        case "assign":
            guard let variable = parameters.first?.text else { return "" }
            variables[variable] = .string(try render(body))
            return ""
        case "trim":
            let text = try render(body)
            try budget.process(bytes: text.utf8.count)
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        default:
            break
        }
        if expression.isHelperCall || TemplateHelpers.blockNames.contains(name) {
            let result = try evaluate(expression)
            if name == "contains" || name == "matches" {
                // WireMock 2.35's block forms of these render their body when true and nothing otherwise,
                // ignoring an {{else}} part.
                return result.isTruthy ? try render(body) : ""
            }
            if case .bool(let flag) = result { return try flag ? render(body) : render(inverse) }
            return try text(of: result)
        }
        // A section over a value (Mustache): lists repeat the body, a true value renders it once within it.
        let context = try lookup(expression.head)
        guard context.isTruthy else { return try render(inverse) }
        switch context {
        case .list, .multi, .json(.array):
            var output = ""
            for element in context.elements {
                try budget.step()
                let piece = try within(element.value) { (renderer) throws(TemplateRenderError) in
                    try renderer.render(body)
                }
                try append(piece, to: &output)
            }
            return output
        case .bool:
            return try render(body)
        default:
            return try within(context) { (renderer) throws(TemplateRenderError) in try renderer.render(body) }
        }
    }

    private mutating func within<T>(
        _ context: TemplateValue, data: [String: TemplateValue] = [:],
        _ body: (inout TemplateRenderer) throws(TemplateRenderError) -> T
    ) throws(TemplateRenderError) -> T {
        frames.append(Frame(context: context, data: data))
        defer { frames.removeLast() }
        return try body(&self)
    }

    // MARK: Values

    /// The value of a mustache: a helper's result or a looked-up value.
    mutating func evaluate(_ expression: TemplateExpression) throws(TemplateRenderError) -> TemplateValue {
        guard expression.isHelperCall else { return try lookup(expression.head) }
        try budget.step()
        let name = expression.head.segments[0]
        var parameters: [TemplateValue] = []
        for argument in expression.parameters { parameters.append(try value(of: argument)) }
        var hash: [String: TemplateValue] = [:]
        for (key, argument) in expression.hash { hash[key] = try value(of: argument) }
        do {
            return try TemplateHelpers.call(name, parameters: parameters, hash: hash, renderer: &self)
        } catch {
            if error.isOverBudget { throw error.at(expression) }
            throw TemplateRenderError("\(error.message) in \(expression.source) (template line \(expression.line))")
        }
    }

    /// The value of a parameter or hash argument: one step each, so a mustache with thousands of parameters,
    /// evaluated in a loop, costs what it does.
    private mutating func value(of argument: TemplateArgument) throws(TemplateRenderError) -> TemplateValue {
        try budget.step()
        switch argument {
        case .string(let text): return .string(text)
        case .number(let number): return .number(number)
        case .bool(let flag): return .bool(flag)
        case .null: return .null
        case .path(let path): return try lookup(path)
        case .call(let expression): return try evaluate(expression)
        }
    }

    /// Resolves a path in the contexts, innermost first, then in the variables.
    func lookup(_ path: TemplatePath) throws(TemplateRenderError) -> TemplateValue {
        let start = frames.count - 1 - path.parents
        guard start >= 0 else { return .null }
        if path.isData {
            guard let name = path.segments.first else { return .null }
            for index in stride(from: start, through: 0, by: -1) {
                if let value = frames[index].data[name] { return follow(value, path.segments.dropFirst()) }
            }
            return .null
        }
        guard let first = path.segments.first else { return frames[start].context }
        let lowest = path.isExplicit ? start : 0
        for index in stride(from: start, through: lowest, by: -1) {
            if let value = frames[index].context.member(first) { return follow(value, path.segments.dropFirst()) }
        }
        if let value = variables[first] { return follow(value, path.segments.dropFirst()) }
        return .null
    }

    private func follow(_ value: TemplateValue, _ rest: ArraySlice<String>) -> TemplateValue {
        var current = value
        for segment in rest {
            guard let next = current.member(segment) else { return .null }
            current = next
        }
        return current
    }

    /// Handlebars.java's `escapeExpression`: `&`, `<`, `>`, `"`, `'`, `` ` `` and `=` as HTML entities,
    /// each wherever it occurs (Java escapes UTF-16 units, so a combining mark after one does not protect
    /// it). The escaped text's size is known before it is made, and checked.
    mutating func escape(_ text: String) throws(TemplateRenderError) -> String {
        let sizes = TemplateRenderer.escapedSizes
        var size = 0
        for byte in text.utf8 { size += Int(sizes[Int(byte)]) }
        guard size != text.utf8.count else { return text }
        try budget.make(bytes: size)
        let entities = TemplateRenderer.entities
        return String(unsafeUninitializedCapacity: size) { output in
            var position = 0
            for byte in text.utf8 {
                if sizes[Int(byte)] == 1 {
                    output[position] = byte
                    position += 1
                } else {
                    for unit in entities[byte]! {
                        output[position] = unit
                        position += 1
                    }
                }
            }
            return position
        }
    }

    /// The entity for each byte ``escape(_:)`` replaces.
    private static let entities: [UInt8: [UInt8]] = [
        UInt8(ascii: "&"): Array("&amp;".utf8), UInt8(ascii: "<"): Array("&lt;".utf8),
        UInt8(ascii: ">"): Array("&gt;".utf8), UInt8(ascii: "\""): Array("&quot;".utf8),
        UInt8(ascii: "'"): Array("&#x27;".utf8), UInt8(ascii: "`"): Array("&#x60;".utf8),
        UInt8(ascii: "="): Array("&#x3D;".utf8),
    ]

    /// The bytes each byte takes once escaped, indexed by byte.
    private static let escapedSizes: [UInt8] = (0...255).map { UInt8(entities[UInt8($0)]?.count ?? 1) }
}

/// A template that failed while rendering (a bad date format, a helper given the wrong values), or that passed
/// its ``TemplateBudget``.
struct TemplateRenderError: Error {
    var message: String
    /// Whether rendering passed its work budget; ``message`` then says which limit
    /// (`more than 2000000 steps (limits.maxTemplateSteps)`).
    var isOverBudget = false
    /// For a budget overrun, the mustache that passed it and its line (`{{#each items}} (template line 3)`).
    var site: String?

    init(_ message: String) { self.message = message }

    /// The error for a render that passed its budget, `what` saying which limit.
    static func overBudget(_ what: String) -> TemplateRenderError {
        var error = TemplateRenderError(what)
        error.isOverBudget = true
        return error
    }

    /// This error with `site` as where the budget ran out, unless an inner mustache is named already.
    func at(_ expression: TemplateExpression) -> TemplateRenderError {
        guard isOverBudget, site == nil else { return self }
        var error = self
        error.site = "\(expression.source) (template line \(expression.line))"
        return error
    }

    /// The message naming the stub (`'name' (id)`), for a budget overrun:
    /// `template of stub 'list' (…) passed its work budget at {{#each items}} (template line 3): more than
    /// 2000000 steps (limits.maxTemplateSteps)`.
    func budgetMessage(stub: String?) -> String {
        let template = stub.map { "template of stub \($0)" } ?? "template"
        return "\(template) passed its work budget at \(site ?? "literal text"): \(message)"
    }
}
