/// A JSONPath expression (the Goessner subset WireMock stubs use in practice).
///
/// Supported: `$`, `.name`, `['name']`, `[n]` (negative counts from the end), `[*]` and `.*`, `..name`
/// (recursive descent), and filters as Jayway JsonPath (WireMock's) reads them (``JSONPathFilter``):
/// `[?(@.name)]`, `[?(!@.name)]`, `[?(@.name == 'x')]` with `==`, `!=`, `<`, `<=`, `>`, `>=`, `=~ /regex/i`,
/// `in`, `nin`, `subsetof`, `anyof`, `noneof`, `size`, `empty`, `contains`, joined with `&&`, `||` and
/// parentheses. Anything else is rejected when the stub loads, naming what it saw.
package struct JSONPath: Sendable, Hashable {
    /// The expression as written.
    package let expression: String
    private let steps: [Step]

    private enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
        case wildcard
        case recursive(String?)
        case filter(JSONPathFilter)
    }

    /// Parses an expression.
    ///
    /// - Throws: ``StubDefinitionError`` naming what is not supported.
    package init(_ expression: String) throws(StubDefinitionError) {
        self.expression = expression
        var parser = Parser(text: Array(expression))
        steps = try parser.parse()
    }

    /// Whether the expression selects at most one value: no wildcard, `..` or filter (Jayway JsonPath's
    /// "definite path", whose result is the value itself rather than a list).
    package var isDefinite: Bool {
        steps.allSatisfy { step in
            switch step {
            case .member, .index: true
            default: false
            }
        }
    }

    /// Every value the expression selects in `document` (empty when nothing matches).
    ///
    /// An evaluation visits at most ``visitBudget`` values; once they are spent, the steps left select
    /// nothing more, so a runaway expression selects less (often nothing) instead of running for minutes.
    /// `..` selects every descendant, so a few in a row select a number of values that grows with the depth
    /// of the document to the power of their count (`$..*..*..*..*` on 300 nested arrays, a 600-byte body,
    /// would select about 337 million).
    package func evaluate(on document: JSONValue) -> [JSONValue] {
        select(in: document)
    }

    /// ``evaluate(on:)`` over any ``JSONTreeNode``: a request body's ``JSONDocument`` is read in place.
    func select<Node: JSONTreeNode>(in document: Node) -> [Node] {
        var current = [document]
        var budget = JSONPath.visitBudget
        for step in steps {
            var next: [Node] = []
            for value in current where budget > 0 {
                let selected = JSONPath.apply(step, to: value, budget: &budget)
                budget -= selected.count
                next += selected
            }
            current = next
        }
        return current
    }

    /// The most values one evaluation visits: about 45 times what the largest shipped PokeAPI body holds
    /// (22,445 values in 450 KB), and a few hundred milliseconds of work.
    package static let visitBudget = 1_000_000

    private static func apply<Node: JSONTreeNode>(_ step: Step, to value: Node, budget: inout Int) -> [Node] {
        switch step {
        case .member(let name):
            return value.member(named: name).map { [$0] } ?? []
        case .index(let index):
            guard value.kind == .array else { return [] }
            let resolved = index < 0 ? value.count + index : index
            return value.element(at: resolved).map { [$0] } ?? []
        case .wildcard:
            return children(of: value)
        case .recursive(let name):
            var found: [Node] = []
            collect(value, name: name, into: &found, budget: &budget)
            return found
        case .filter(let filter):
            // On an array the filter tests each item; on an object, the object itself (as Jayway JsonPath,
            // which WireMock uses, does).
            let items: [Node]
            if value.kind == .object { items = [value] } else { items = children(of: value) }
            return items.filter { filter.passes($0) }
        }
    }

    /// An array's items, or an object's member values in the order of their sorted names.
    private static func children<Node: JSONTreeNode>(of value: Node) -> [Node] {
        switch value.kind {
        case .array: value.elements
        case .object: value.memberValues
        default: []
        }
    }

    private static func collect<Node: JSONTreeNode>(
        _ value: Node, name: String?, into found: inout [Node], budget: inout Int
    ) {
        budget -= 1
        guard budget - found.count > 0 else { return }
        if let name, let member = value.member(named: name) { found.append(member) }
        for child in children(of: value) {
            if name == nil { found.append(child) }
            collect(child, name: name, into: &found, budget: &budget)
        }
    }

    package static func == (lhs: JSONPath, rhs: JSONPath) -> Bool { lhs.expression == rhs.expression }
    package func hash(into hasher: inout Hasher) { hasher.combine(expression) }

    private struct Parser {
        let text: [Character]
        var position = 0
        var nesting = 0

        mutating func parse() throws(StubDefinitionError) -> [Step] {
            skipSpaces()
            guard next() == "$" else { throw error("must start with $") }
            var steps: [Step] = []
            while position < text.count {
                let character = next()
                if character == "." {
                    if peek() == "." {
                        position += 1
                        if peek() == "*" {
                            position += 1
                            steps.append(.recursive(nil))
                        } else {
                            steps.append(.recursive(try name()))
                        }
                    } else if peek() == "*" {
                        position += 1
                        steps.append(.wildcard)
                    } else {
                        steps.append(.member(try name()))
                    }
                } else if character == "[" {
                    steps.append(try bracket())
                } else {
                    throw error("unexpected \(String(character ?? " ").debugDescription) at \(position)")
                }
            }
            return steps
        }

        mutating func bracket() throws(StubDefinitionError) -> Step {
            skipSpaces()
            let step: Step
            if peek() == "*" {
                position += 1
                step = .wildcard
            } else if peek() == "'" || peek() == "\"" {
                step = .member(try quoted())
            } else if peek() == "?" {
                position += 1
                step = try filter()
            } else {
                var digits = ""
                while let character = peek(), character.isNumber || character == "-" {
                    digits.append(character)
                    position += 1
                }
                guard let index = Int(digits) else { throw error("unsupported subscript at \(position)") }
                step = .index(index)
            }
            skipSpaces()
            guard next() == "]" else { throw error("expected ] at \(position)") }
            return step
        }

        mutating func filter() throws(StubDefinitionError) -> Step {
            guard next() == "(" else { throw error("filters look like [?(@.name == 'value')]") }
            let filter = try orFilter()
            skipSpaces()
            guard next() == ")" else { throw error("expected ) to close the filter at \(position - 1)") }
            return .filter(filter)
        }

        mutating func orFilter() throws(StubDefinitionError) -> JSONPathFilter {
            var filter = try andFilter()
            while skipSpaces(), peek(2) == "||" {
                position += 2
                filter = .or(filter, try andFilter())
            }
            return filter
        }

        mutating func andFilter() throws(StubDefinitionError) -> JSONPathFilter {
            var filter = try unaryFilter()
            while skipSpaces(), peek(2) == "&&" {
                position += 2
                filter = .and(filter, try unaryFilter())
            }
            return filter
        }

        mutating func unaryFilter() throws(StubDefinitionError) -> JSONPathFilter {
            skipSpaces()
            if peek() == "(" {
                position += 1
                // Bounded, so a stub from the admin API cannot exhaust the stack.
                nesting += 1
                defer { nesting -= 1 }
                guard nesting <= 64 else { throw error("parentheses nest deeper than 64 levels") }
                let filter = try orFilter()
                skipSpaces()
                guard next() == ")" else { throw error("expected ) at \(position - 1)") }
                return filter
            }
            if peek() == "!" {
                position += 1
                guard case .path(let path) = try operand() else { throw error("! must precede @.name") }
                return .notExists(path)
            }
            let left = try operand()
            skipSpaces()
            guard let character = peek(), character != ")", peek(2) != "&&", peek(2) != "||" else {
                guard case .path(let path) = left else { throw error("a filter needs @.name or a comparison") }
                return .exists(path)
            }
            var operation = ""
            if character.isLetter {
                while let letter = peek(), letter.isLetter {
                    operation.append(letter)
                    position += 1
                }
            } else {
                while let symbol = peek(), "=!<>~".contains(symbol) {
                    operation.append(symbol)
                    position += 1
                }
            }
            guard let parsed = JSONPathFilter.Operator(rawValue: operation) else {
                let seen = operation.isEmpty ? String(character) : operation
                throw error(
                    "unsupported filter operator \(seen.debugDescription) (supported: "
                        + JSONPathFilter.Operator.allCases.map(\.rawValue).joined(separator: " ") + ")")
            }
            skipSpaces()
            let right = try operand(regexAllowed: parsed == .matchesRegex)
            return .compare(left, parsed, right)
        }

        mutating func operand(regexAllowed: Bool = false) throws(StubDefinitionError) -> JSONPathFilter.Operand {
            skipSpaces()
            switch peek() {
            case "@":
                position += 1
                var path: [String] = []
                while true {
                    if peek() == "." {
                        position += 1
                        path.append(try name())
                    } else if peek() == "[", peek(offset: 1) == "'" || peek(offset: 1) == "\"" {
                        position += 1
                        path.append(try quoted())
                        guard next() == "]" else { throw error("expected ] at \(position - 1)") }
                    } else {
                        return .path(path)
                    }
                }
            case "/" where regexAllowed:
                position += 1
                var pattern = ""
                var closed = false
                while let character = next() {
                    if character == "/" {
                        closed = true
                        break
                    }
                    if character == "\\", let escaped = peek(), escaped == "/" {
                        position += 1
                        pattern.append("/")
                    } else {
                        pattern.append(character)
                    }
                }
                guard closed else { throw error("a regular expression /…/ without its closing /") }
                var flags = ""
                while let flag = peek(), flag.isLetter {
                    flags.append(flag)
                    position += 1
                }
                do { return .regex(try JSONPathFilter.regex(pattern, flags: flags)) } catch {
                    throw self.error(error.message)
                }
            case "[":
                position += 1
                var items: [JSONValue] = []
                skipSpaces()
                while peek() != "]" {
                    if !items.isEmpty {
                        guard next() == "," else { throw error("expected , or ] in a list at \(position - 1)") }
                    }
                    skipSpaces()
                    items.append(try literal())
                    skipSpaces()
                }
                position += 1
                return .literal(.array(items))
            default:
                return .literal(try literal())
            }
        }

        mutating func literal() throws(StubDefinitionError) -> JSONValue {
            if peek() == "'" || peek() == "\"" { return .string(try quoted()) }
            var word = ""
            while let character = peek(), !")] ,&|".contains(character) {
                word.append(character)
                position += 1
            }
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default:
                if let integer = Int64(word) { return .integer(integer) }
                if let double = Double(word) { return .double(double) }
                throw error("unsupported filter value \(word.debugDescription)")
            }
        }

        mutating func quoted() throws(StubDefinitionError) -> String {
            let quote = next()
            var value = ""
            while let character = next() {
                if character == quote { return value }
                if character == "\\", let escaped = next() {
                    value.append(escaped)
                } else {
                    value.append(character)
                }
            }
            throw error("unterminated string")
        }

        mutating func name() throws(StubDefinitionError) -> String {
            var value = ""
            while let character = peek(), character.isLetter || character.isNumber || "_-$".contains(character) {
                value.append(character)
                position += 1
            }
            guard !value.isEmpty else { throw error("expected a name at \(position)") }
            return value
        }

        /// Skips spaces; returns `true`, so it can open a `while` condition.
        @discardableResult
        mutating func skipSpaces() -> Bool {
            while peek() == " " { position += 1 }
            return true
        }

        func peek() -> Character? { position < text.count ? text[position] : nil }

        func peek(offset: Int) -> Character? { position + offset < text.count ? text[position + offset] : nil }

        /// The next `count` characters, or fewer at the end (none once past it: `next()` steps past the end).
        func peek(_ count: Int) -> String {
            guard position < text.count else { return "" }
            return String(text[position..<min(text.count, position + count)])
        }

        mutating func next() -> Character? {
            defer { position += 1 }
            return peek()
        }

        func error(_ message: String) -> StubDefinitionError {
            StubDefinitionError("JSONPath \(String(text).debugDescription): \(message)")
        }
    }
}
