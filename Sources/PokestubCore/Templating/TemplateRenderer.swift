import Foundation

/// Renders a parsed template over a model, as Handlebars.java does for WireMock 2.35.
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

    init(model: TemplateValue) {
        frames = [Frame(context: model)]
    }

    mutating func render(_ nodes: [TemplateNode]) throws(TemplateRenderError) -> String {
        var output = ""
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .output(let expression, let escaped):
                let value = try evaluate(expression)
                output += escaped ? TemplateRenderer.escape(value.text) : value.text
            case .block(let expression, let body, let inverse):
                output += try renderBlock(expression, body: body, inverse: inverse)
            }
        }
        return output
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
                var data: [String: TemplateValue] = [
                    "index": .number(TemplateNumber(index)), "first": .bool(index == 0),
                    "last": .bool(index == elements.count - 1),
                ]
                if let key = element.key { data["key"] = .string(key) }
                output += try within(element.value, data: data) { (renderer) throws(TemplateRenderError) in
                    try renderer.render(body)
                }
            }
            return output
        case "assign":
            guard let variable = parameters.first?.text else { return "" }
            variables[variable] = .string(try render(body))
            return ""
        case "trim":
            return try render(body).trimmingCharacters(in: .whitespacesAndNewlines)
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
            return result.text
        }
        // A section over a value (Mustache): lists repeat the body, a true value renders it once within it.
        let context = try lookup(expression.head)
        guard context.isTruthy else { return try render(inverse) }
        switch context {
        case .list, .multi, .json(.array):
            var output = ""
            for element in context.elements {
                output += try within(element.value) { (renderer) throws(TemplateRenderError) in
                    try renderer.render(body)
                }
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
        let name = expression.head.segments[0]
        var parameters: [TemplateValue] = []
        for argument in expression.parameters { parameters.append(try value(of: argument)) }
        var hash: [String: TemplateValue] = [:]
        for (key, argument) in expression.hash { hash[key] = try value(of: argument) }
        do {
            return try TemplateHelpers.call(name, parameters: parameters, hash: hash, renderer: &self)
        } catch {
            throw TemplateRenderError("\(error.message) in \(expression.source) (template line \(expression.line))")
        }
    }

    private mutating func value(of argument: TemplateArgument) throws(TemplateRenderError) -> TemplateValue {
        switch argument {
        case .string(let text): .string(text)
        case .number(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .null: .null
        case .path(let path): try lookup(path)
        case .call(let expression): try evaluate(expression)
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

    /// Handlebars.java's `escapeExpression`: `&`, `<`, `>`, `"`, `'`, `` ` `` and `=` as HTML entities.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { escapedBytes.contains($0) }) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#x27;"
            case "`": output += "&#x60;"
            case "=": output += "&#x3D;"
            default: output.append(character)
            }
        }
        return output
    }

    private static let escapedBytes: Set<UInt8> = Set("&<>\"'`=".utf8)
}

/// A template that failed while rendering (a bad date format, a helper given the wrong values).
struct TemplateRenderError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
