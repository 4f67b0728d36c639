import Foundation

/// Renders a parsed template over a model, as Handlebars.java does for WireMock 2.35, within a
/// ``TemplateBudget``.
///
/// Lookups start in the current context and walk out through the enclosing ones (Handlebars.java's
/// default), then the variables set with `assign` or `regexExtract`. `{{…}}` output is HTML-escaped with
/// Handlebars.java's table (`& < > " ' \` =`); `{{{…}}}` is not.
struct TemplateRenderer {
    /// A context lookups walk, with the loop position `#each` set when it pushed it.
    private struct Frame {
        var context: TemplateValue
        var loop: Loop?
    }

    /// `#each`'s data variables for one element: `@index`, `@first`, `@last` from its position, `@key` for
    /// a map's or object's member.
    private struct Loop {
        var index: Int
        var count: Int
        var key: String? = nil
    }

    private var frames: [Frame]
    /// Variables set by `assign` and `regexExtract`'s third parameter, visible to every later lookup.
    var variables = TemplateMap()
    /// The random source for `randomValue` and `randomInt`.
    var random = SystemRandomNumberGenerator()
    /// What this request's templates have spent so far; every node, iteration and helper draws from it.
    var budget: TemplateBudget
    /// The JSON text `jsonPath` parsed last, and what it read, so a loop over the request body's values
    /// parses the body once.
    var lastParsedJSON: (text: String, document: JSONDocument?)?
    /// Emptied parameter lists whose storage a later helper call fills again, so that a call in a loop does
    /// not allocate its list each time (one list per call nested at once).
    private var spareParameters: [[TemplateValue]] = []
    /// The values of the loop-invariant calls and paths (``TemplateLoopInvariants``) worked out in the current
    /// run of their loop, by slot, with the steps each call's helper took (none for a path).
    private var invariants: [(value: TemplateValue, helperSteps: Int)?]
    /// Whether `and`, `or`, `not` and the comparisons are answered without gathering their parameters into a
    /// list, and `lookup` reads a list at a whole number's position without its text (the same values and
    /// steps as ``TemplateHelpers``' general path; off only to compare the two in tests).
    var usesFastPaths = true

    init(model: TemplateValue, budget: TemplateBudget, invariantSlots: Int = 0) {
        frames = [Frame(context: model)]
        frames.reserveCapacity(8)
        self.budget = budget
        invariants = Array(repeating: nil, count: invariantSlots)
    }

    mutating func render(_ nodes: [TemplateNode]) throws(TemplateRenderError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(1_024)
        try render(nodes, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Renders `nodes` onto the end of `output` (UTF-8), which they share with the blocks around them: what
    /// they write, from where they start, is held to ``TemplateLimits/maxBytes`` as a string of its own.
    private mutating func render(_ nodes: [TemplateNode], into output: inout [UInt8]) throws(TemplateRenderError) {
        let start = output.count
        for node in nodes {
            switch node {
            case .text(let text):
                try budget.step()
                try append(text, to: &output, from: start)
            case .output(let expression, let escaped):
                do {
                    try budget.step()
                    let text = try self.text(of: try evaluate(expression))
                    if escaped {
                        try appendEscaping(text, to: &output, from: start)
                    } else {
                        try append(text, to: &output, from: start)
                    }
                } catch {
                    throw error.at(expression)
                }
            case .block(let block):
                do {
                    try budget.step()
                    let before = output.count
                    try render(block, into: &output)
                    try allow(output, since: before, from: start)
                } catch {
                    throw error.at(block.expression)
                }
            }
        }
    }

    /// Appends `piece` to `output` when what was written from `start` stays within ``TemplateLimits/maxBytes``.
    /// (This and the other `mutating` readers are so only that the renderer is passed by reference, not copied.)
    private mutating func append(_ piece: String, to output: inout [UInt8], from start: Int) throws(TemplateRenderError)
    {
        guard !piece.isEmpty else { return }
        try budget.allow(bytes: output.count - start + piece.utf8.count)
        output.append(contentsOf: piece.utf8)
    }

    /// Checks, when something was written to `output` after `before`, that what was written from `start` stays
    /// within ``TemplateLimits/maxBytes``: the check ``append(_:to:from:)`` makes, for a part rendered in place.
    private mutating func allow(_ output: [UInt8], since before: Int, from start: Int) throws(TemplateRenderError) {
        let count = output.count
        guard count != before else { return }
        try budget.allow(bytes: count - start)
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

    /// Renders `block` onto the end of `output`.
    private mutating func render(_ block: TemplateBlock, into output: inout [UInt8]) throws(TemplateRenderError) {
        let expression = block.expression
        // Every block's parameters are evaluated first (a helper's block form evaluates them again as it
        // calls the helper), each taking its step.
        var first: TemplateValue?
        for argument in expression.parameters {
            let value = try value(of: argument)
            if first == nil { first = value }
        }
        switch block.kind {
        case .conditional:
            try render(first?.isTruthy == true ? block.body : block.inverse, into: &output)
        case .unless:
            try render(first?.isTruthy == true ? block.inverse : block.body, into: &output)
        case .with:
            guard let context = first, context.isTruthy else { return try render(block.inverse, into: &output) }
            try within(context) { (renderer) throws(TemplateRenderError) in
                try renderer.render(block.body, into: &output)
            }
        case .each:
            let list = first ?? .null
            let count = list.elementCount
            guard count > 0 else { return try render(block.inverse, into: &output) }
            for slot in block.invariantSlots { invariants[slot] = nil }
            // A list's elements are read by index as the loop reaches them; a map's are gathered first, with
            // their keys. One frame is pushed for the loop and holds each element in turn.
            let keyed = list.isIndexed ? nil : list.elements
            let start = output.count
            let top = frames.count
            frames.append(Frame(context: .null, loop: nil))
            for index in 0..<count {
                try budget.step()
                if let keyed {
                    frames[top] = Frame(
                        context: keyed[index].value, loop: Loop(index: index, count: count, key: keyed[index].key))
                } else {
                    frames[top] = Frame(context: list.element(at: index), loop: Loop(index: index, count: count))
                }
                let before = output.count
                try render(block.body, into: &output)
                try allow(output, since: before, from: start)
            }
            frames.removeLast()
        case .assign:
            guard let variable = first?.text else { return }
            variables.set(variable, .string(try render(block.body)))
        case .trim:
            let text = try render(block.body)
            try budget.process(bytes: text.utf8.count)
            output.append(contentsOf: text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        case .helper(let helper):
            let result = try evaluate(expression)
            if helper == .contains || helper == .matches {
                // WireMock 2.35's block forms of these render their body when true and nothing otherwise,
                // ignoring an {{else}} part.
                if result.isTruthy { try render(block.body, into: &output) }
                return
            }
            if case .bool(let flag) = result { return try render(flag ? block.body : block.inverse, into: &output) }
            output.append(contentsOf: try text(of: result).utf8)
        case .section:
            try renderSection(block, into: &output)
        }
    }

    /// A section over a value (Mustache): lists repeat the body, a true value renders it once within it.
    private mutating func renderSection(
        _ block: TemplateBlock, into output: inout [UInt8]
    ) throws(TemplateRenderError) {
        let context = try lookup(block.expression.head)
        guard context.isTruthy else { return try render(block.inverse, into: &output) }
        switch context {
        case .list, .multi, .json(.array):
            let start = output.count
            for element in context.elements {
                try budget.step()
                let before = output.count
                try within(element.value) { (renderer) throws(TemplateRenderError) in
                    try renderer.render(block.body, into: &output)
                }
                try allow(output, since: before, from: start)
            }
        case .bool:
            try render(block.body, into: &output)
        default:
            try within(context) { (renderer) throws(TemplateRenderError) in
                try renderer.render(block.body, into: &output)
            }
        }
    }

    private mutating func within<T>(
        _ context: TemplateValue, loop: Loop? = nil,
        _ body: (inout TemplateRenderer) throws(TemplateRenderError) -> T
    ) throws(TemplateRenderError) -> T {
        frames.append(Frame(context: context, loop: loop))
        defer { frames.removeLast() }
        return try body(&self)
    }

    // MARK: Values

    /// The value of a mustache: a helper's result or a looked-up value.
    mutating func evaluate(_ expression: TemplateExpression) throws(TemplateRenderError) -> TemplateValue {
        guard expression.isHelperCall else { return try lookupKeeping(expression.head) }
        if usesFastPaths, expression.hash.isEmpty, let helper = expression.helper {
            switch helper {
            case .and, .or, .not: return try logic(helper, expression)
            case .gt, .gte, .lt, .lte: return try comparison(helper, expression)
            default: break
            }
        }
        try budget.step()
        var parameters = spareParameters.popLast() ?? []
        for argument in expression.parameters { parameters.append(try value(of: argument)) }
        var hash: [String: TemplateValue] = [:]
        for (key, argument) in expression.hash { hash[key] = try value(of: argument) }
        guard let helper = expression.helper else {
            let name = expression.head.dottedName
            throw TemplateRenderError(
                "unsupported helper \(name.debugDescription) in \(expression.source) (template line \(expression.line))"
            )
        }
        defer {
            parameters.removeAll(keepingCapacity: true)
            spareParameters.append(parameters)
        }
        do {
            return try TemplateHelpers.call(helper, parameters: parameters, hash: hash, renderer: &self)
        } catch {
            if error.isOverBudget { throw error.at(expression) }
            throw TemplateRenderError("\(error.message) in \(expression.source) (template line \(expression.line))")
        }
    }

    /// `and`, `or` and `not` without a hash, as ``TemplateHelpers/call(_:parameters:hash:renderer:)`` answers
    /// them and with the same steps, without gathering the parameters into a list.
    private mutating func logic(
        _ helper: TemplateHelper, _ expression: TemplateExpression
    ) throws(TemplateRenderError) -> TemplateValue {
        try budget.step()
        var all = true
        var any = false
        var first = false
        var count = 0
        for argument in expression.parameters {
            let truthy = try value(of: argument).isTruthy
            if count == 0 { first = truthy }
            all = all && truthy
            any = any || truthy
            count += 1
        }
        switch helper {
        case .and: return .bool(count > 0 && all)
        case .or: return .bool(any)
        default: return .bool(!first)
        }
    }

    /// `gt`, `gte`, `lt` and `lte` without a hash, as ``TemplateHelpers/call(_:parameters:hash:renderer:)``
    /// answers them and with the same steps, without gathering the parameters into a list.
    private mutating func comparison(
        _ helper: TemplateHelper, _ expression: TemplateExpression
    ) throws(TemplateRenderError) -> TemplateValue {
        try budget.step()
        var lhs = TemplateValue.null
        var rhs = TemplateValue.null
        var count = 0
        for argument in expression.parameters {
            let value = try value(of: argument)
            if count == 0 { lhs = value } else if count == 1 { rhs = value }
            count += 1
        }
        guard count >= 2 else { return .bool(false) }
        do {
            if case .string(let text) = lhs { try budget.process(bytes: text.utf8.count) }
            if case .string(let text) = rhs { try budget.process(bytes: text.utf8.count) }
        } catch {
            throw error.at(expression)
        }
        guard let order = TemplateHelpers.compare(lhs, rhs) else { return .bool(false) }
        switch helper {
        case .gt: return .bool(order > 0)
        case .gte: return .bool(order >= 0)
        case .lt: return .bool(order < 0)
        default: return .bool(order <= 0)
        }
    }

    /// The value of a parameter or hash argument: one step each, so a mustache with thousands of parameters,
    /// evaluated in a loop, costs what it does.
    private mutating func value(of argument: TemplateArgument) throws(TemplateRenderError) -> TemplateValue {
        try budget.step()
        switch argument {
        case .literal(let value): return value
        case .path(let path): return try lookupKeeping(path)
        case .call(let expression):
            guard let invariant = expression.invariant else { return try evaluate(expression) }
            return try evaluate(expression, invariant)
        }
    }

    /// The value of a loop-invariant call: worked out once per run of its loop, and in every later iteration
    /// the steps it took charged again, as evaluating it charges them (its own step and its arguments' first,
    /// then the helper's, a budget overrun in those naming the call). An element with a member the call reads
    /// by name gets the call evaluated for it.
    private mutating func evaluate(
        _ expression: TemplateExpression, _ invariant: TemplateInvariant
    ) throws(TemplateRenderError) -> TemplateValue {
        for name in invariant.elementNames where frames[frames.count - 1].context.member(name) != nil {
            return try evaluate(expression)
        }
        if let (value, helperSteps) = invariants[invariant.slot] {
            try budget.step(1 + expression.parameters.count + expression.hash.count)
            do { try budget.step(helperSteps) } catch { throw error.at(expression) }
            return value
        }
        let before = budget.steps
        let value = try evaluate(expression)
        // Its arguments are literals and paths (``TemplateLoopInvariants``): a step each, besides its own.
        let callSteps = 1 + expression.parameters.count + expression.hash.count
        invariants[invariant.slot] = (value, budget.steps - before - callSteps)
        return value
    }

    /// The value of `path`, kept for the rest of its loop's run when it is loop-invariant
    /// (``TemplatePath/invariantSlot``).
    private mutating func lookupKeeping(_ path: TemplatePath) throws(TemplateRenderError) -> TemplateValue {
        guard let slot = path.invariantSlot else { return try lookup(path) }
        if let (value, _) = invariants[slot] { return value }
        let value = try lookup(path)
        invariants[slot] = (value, 0)
        return value
    }

    /// Resolves a path in the contexts, innermost first, then in the variables (`mutating` only so that the
    /// renderer is passed by reference, not copied, at every lookup).
    mutating func lookup(_ path: TemplatePath) throws(TemplateRenderError) -> TemplateValue {
        let start = frames.count - 1 - path.parents
        guard start >= 0 else { return .null }
        if let data = path.data {
            for index in stride(from: start, through: 0, by: -1) {
                guard let loop = frames[index].loop else { continue }
                let value: TemplateValue
                switch data {
                case .index: value = .number(TemplateNumber(loop.index))
                case .first: value = .bool(loop.index == 0)
                case .last: value = .bool(loop.index == loop.count - 1)
                case .key:
                    guard let key = loop.key else { continue }
                    value = .string(key)
                case .unknown: return .null
                }
                return TemplateRenderer.follow(value, path.segments)
            }
            return .null
        }
        let segments = path.segments
        guard let first = segments.first else { return frames[start].context }
        let lowest = path.isExplicit ? start : 0
        for index in stride(from: start, through: lowest, by: -1) {
            if let value = frames[index].context.member(first) { return TemplateRenderer.follow(value, segments) }
        }
        if let value = variables.value(for: first) { return TemplateRenderer.follow(value, segments) }
        return .null
    }

    /// `value`, the first segment's, followed through the rest of `segments`.
    private static func follow(_ value: TemplateValue, _ segments: [TemplatePathSegment]) -> TemplateValue {
        guard segments.count > 1 else { return value }
        var current = value
        for position in 1..<segments.count {
            guard let next = current.member(segments[position]) else { return .null }
            current = next
        }
        return current
    }

    /// Appends `text` to `output` escaped as Handlebars.java's `escapeExpression` does: `&`, `<`, `>`, `"`,
    /// `'`, `` ` `` and `=` as HTML entities, each wherever it occurs (Java escapes UTF-16 units, so a
    /// combining mark after one does not protect it). Text with none of them is appended as
    /// ``append(_:to:from:)`` appends it; otherwise the escaped text's size is known before it is made, and
    /// checked and charged as a string of its own, and then as part of what was written from `start`. The
    /// bytes between two escaped ones are copied as one run.
    private mutating func appendEscaping(
        _ text: String, to output: inout [UInt8], from start: Int
    ) throws(TemplateRenderError) {
        var text = text
        // Index loops over the buffer: a generic scan (`firstIndex(where:)`) reads each byte through the
        // collection's `_read` accessor, which an unoptimized build allocates a frame for, once per byte.
        let size = text.withUTF8 { (bytes) -> Int? in
            var position = 0
            while position < bytes.count, !TemplateRenderer.isEscaped(bytes[position]) { position += 1 }
            guard position < bytes.count else { return nil }
            var size = bytes.count
            while position < bytes.count {
                if TemplateRenderer.isEscaped(bytes[position]) {
                    size += TemplateRenderer.entity(for: bytes[position]).utf8CodeUnitCount - 1
                }
                position += 1
            }
            return size
        }
        guard let size else { return try append(text, to: &output, from: start) }
        try budget.make(bytes: size)
        try budget.allow(bytes: output.count - start + size)
        output.reserveCapacity(output.count + size)
        text.withUTF8 { bytes in
            var run = 0
            for (offset, byte) in bytes.enumerated() where TemplateRenderer.isEscaped(byte) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<offset]))
                let entity = TemplateRenderer.entity(for: byte)
                output.append(contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
                run = offset + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
    }

    /// Whether ``appendEscaping(_:to:from:)`` replaces `byte`: one of `" & ' < = >` and `` ` ``, tested with a bit mask of
    /// the bytes below 128.
    @inline(__always)
    private static func isEscaped(_ byte: UInt8) -> Bool {
        // Bits 0x22, 0x26, 0x27, 0x3C, 0x3D and 0x3E of the first 64 bytes; bit 0x60 - 64 of the next 64.
        let low: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3D | 1 << 0x3E
        let high: UInt64 = 1 << (0x60 - 64)
        if byte < 64 { return low >> byte & 1 != 0 }
        if byte < 128 { return high >> (byte - 64) & 1 != 0 }
        return false
    }

    /// The entity ``appendEscaping(_:to:from:)`` writes for a byte it replaces.
    private static func entity(for byte: UInt8) -> StaticString {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#x27;"
        case UInt8(ascii: "`"): "&#x60;"
        default: "&#x3D;"
        }
    }
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
