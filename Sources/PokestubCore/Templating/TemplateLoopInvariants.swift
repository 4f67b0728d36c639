/// Finds, when a template loads, the helper calls inside an `{{#each}}` whose value is the same in every
/// iteration, so that rendering works each out once per run of the loop (``TemplateInvariant``).
///
/// A call is invariant for the loop whose body holds it when:
/// - it is in the body itself, not inside a block there that pushes a context (`with`, a section, another
///   `each`, which is resolved for its own loop); `if`, `unless`, `trim` and helper blocks push none;
/// - its helper gives the same value and takes the same steps for the same parameters (not `now`, `date`,
///   `parseDate`, `jsonPath` (which keeps the last text it parsed), the random helpers, `regexExtract` or
///   `matches`, whose regular-expression budget depends on the steps left);
/// - every parameter and hash value is a literal or a path that reads no data variable (`@index`, `@key`,
///   `@first`, `@last`), not `this`, and is either relative to an enclosing context (`../`) or walks out from
///   the element, which holds only while the element has no member of its first segment (checked in every
///   iteration, ``TemplateInvariant/elementNames``); a call holding another call is left as it is, so that a
///   budget overrun names the same mustache as before;
/// - nothing in the loop's body sets a variable (`assign`, or `regexExtract` with a variable name), so the
///   variables a path falls back to do not change while the loop runs.
///
/// The steps such a call takes are still charged in every iteration, as many as its first evaluation took.
///
/// A path in the same places (the loop's body, outside blocks that push a context) that starts in an enclosing
/// context (`../parameters.names`) and reads no data variable is looked up once per run of the loop too, when
/// nothing in the body sets a variable: it walks only the contexts around the loop and the variables. Looking
/// up a path takes no steps of its own (its parameter or mustache takes one, as before).
struct TemplateLoopInvariants {
    /// The slots handed out so far: the size of the renderer's store of invariant values.
    private(set) var slotCount = 0
    /// How many of those slots hold a path's value.
    private(set) var pathCount = 0

    /// `nodes` with every loop-invariant call marked with its slot.
    mutating func resolve(_ nodes: [TemplateNode]) -> [TemplateNode] {
        rewrite(nodes, inLoop: false)
    }

    /// The helpers whose value and steps depend only on their parameters.
    static func isRepeatable(_ helper: TemplateHelper) -> Bool {
        switch helper {
        case .now, .date, .parseDate, .jsonPath, .randomValue, .randomInt, .pickRandom, .regexExtract, .matches:
            false
        default: true
        }
    }

    /// `nodes`, where `inLoop` says whether they render in the element's context of a loop whose calls may be
    /// marked.
    private mutating func rewrite(_ nodes: [TemplateNode], inLoop: Bool) -> [TemplateNode] {
        nodes.map { (node) -> TemplateNode in
            switch node {
            case .text: return node
            case .output(let expression, let escaped):
                return .output(rewrite(expression, inLoop: inLoop), escaped: escaped)
            case .block(let block): return .block(rewrite(block, inLoop: inLoop))
            }
        }
    }

    private mutating func rewrite(_ block: TemplateBlock, inLoop: Bool) -> TemplateBlock {
        // A block's parameters, and its inverse part, render in the context around the block.
        let expression = rewrite(block.expression, inLoop: inLoop)
        let inverse = rewrite(block.inverse, inLoop: inLoop)
        let body: [TemplateNode]
        var slots = slotCount..<slotCount
        switch block.kind {
        case .each:
            let first = slotCount
            body = rewrite(block.body, inLoop: TemplateLoopInvariants.setsNoVariable(block.body))
            slots = first..<slotCount
        case .with, .section:
            body = rewrite(block.body, inLoop: false)
        case .conditional, .unless, .assign, .trim, .helper:
            body = rewrite(block.body, inLoop: inLoop)
        }
        return TemplateBlock(block, expression: expression, body: body, inverse: inverse, invariantSlots: slots)
    }

    private mutating func rewrite(_ expression: TemplateExpression, inLoop: Bool) -> TemplateExpression {
        let marksPaths = inLoop && TemplateLoopInvariants.readsEnclosingContext(expression)
        guard
            marksPaths || expression.parameters.contains(where: \.isCall)
                || expression.hash.contains(where: \.value.isCall)
        else { return expression }
        // A value lookup's head is its path; a helper's head is its name.
        let head = expression.isHelperCall ? expression.head : rewrite(expression.head, inLoop: inLoop)
        let parameters = expression.parameters.map { rewrite($0, inLoop: inLoop) }
        let hash = expression.hash.map { (name: $0.name, value: rewrite($0.value, inLoop: inLoop)) }
        return TemplateExpression(
            expression, head: head, parameters: parameters, hash: hash, invariant: expression.invariant)
    }

    /// `path`, given a slot when it is loop-invariant: in a loop's body, it starts in an enclosing context
    /// (`../`) and reads no data variable, so it walks only contexts and variables no iteration changes.
    private mutating func rewrite(_ path: TemplatePath, inLoop: Bool) -> TemplatePath {
        guard inLoop, TemplateLoopInvariants.isInvariant(path) else { return path }
        slotCount += 1
        pathCount += 1
        return path.invariant(slot: slotCount - 1)
    }

    private static func isInvariant(_ path: TemplatePath) -> Bool {
        path.parents > 0 && path.data == nil && path.invariantSlot == nil
    }

    /// Whether `expression` reads a loop-invariant path as its value, a parameter or a hash value.
    private static func readsEnclosingContext(_ expression: TemplateExpression) -> Bool {
        if !expression.isHelperCall, isInvariant(expression.head) { return true }
        for argument in expression.parameters + expression.hash.map(\.value) {
            if case .path(let path) = argument, isInvariant(path) { return true }
        }
        return false
    }

    private mutating func rewrite(_ argument: TemplateArgument, inLoop: Bool) -> TemplateArgument {
        if case .path(let path) = argument { return .path(rewrite(path, inLoop: inLoop)) }
        guard case .call(let call) = argument else { return argument }
        if inLoop, let names = TemplateLoopInvariants.elementNames(ofInvariant: call) {
            let invariant = TemplateInvariant(slot: slotCount, elementNames: names)
            slotCount += 1
            return .call(TemplateExpression(call, parameters: call.parameters, hash: call.hash, invariant: invariant))
        }
        return .call(rewrite(call, inLoop: inLoop))
    }

    /// For a call whose value is the same in every iteration of the loop around it, the first segments of the
    /// paths it reads through the element; `nil` for any other.
    private static func elementNames(ofInvariant call: TemplateExpression) -> [TemplatePathSegment]? {
        guard let helper = call.helper, call.isHelperCall, isRepeatable(helper) else { return nil }
        var names: [TemplatePathSegment] = []
        for argument in call.parameters + call.hash.map(\.value) {
            switch argument {
            case .literal: continue
            case .call: return nil
            case .path(let path):
                if path.data != nil { return nil }
                if path.parents > 0 { continue }
                guard !path.isExplicit, let first = path.segments.first else { return nil }
                names.append(first)
            }
        }
        return names
    }

    /// Whether nothing in `nodes` sets a variable: no `assign` block and no `regexExtract` naming a variable.
    private static func setsNoVariable(_ nodes: [TemplateNode]) -> Bool {
        nodes.allSatisfy { node in
            switch node {
            case .text: return true
            case .output(let expression, _): return setsNoVariable(expression)
            case .block(let block):
                if case .assign = block.kind { return false }
                return setsNoVariable(block.expression) && setsNoVariable(block.body) && setsNoVariable(block.inverse)
            }
        }
    }

    private static func setsNoVariable(_ expression: TemplateExpression) -> Bool {
        if expression.helper == .regexExtract, expression.parameters.count > 2 { return false }
        for argument in expression.parameters + expression.hash.map(\.value) {
            if case .call(let call) = argument, !setsNoVariable(call) { return false }
        }
        return true
    }
}
