import Foundation

/// An XPath 1.0 expression from a stub, checked when the stub loads and rewritten so Foundation can evaluate
/// it on every platform.
///
/// Two reasons to read it here rather than hand it to Foundation as written. First, swift-corelibs-foundation's
/// `XMLNode.nodes(forXPath:)` dereferences a null pointer when libxml2 fails to evaluate an expression (a syntax
/// error, an undeclared prefix, an unknown function, a number where a node-set must be; seen with the Swift 6
/// toolchain here) and when it wraps a selected namespace node, so only expressions that cannot fail may reach it: the grammar of XPath 1.0 (W3C XPath 1.0
/// §3, §2) with its core functions (§4) and their node-set arguments, checked by type. Second, Foundation has no
/// call to bind namespace prefixes, so a prefixed name test (`m:id`, with `m` from the stub's `xPathNamespaces`)
/// is rewritten as `*[local-name()='id' and namespace-uri()='urn:m']`, which selects the same nodes. A relative
/// path outside predicates is made absolute, so it starts at the document on every platform.
struct XPathExpression: Sendable, Hashable {
    /// The expression as written in the stub.
    let expression: String
    /// The same expression with every prefixed name test spelled without a prefix.
    let rewritten: String
    /// Steps that walk a subtree or the ancestors (`//`, `descendant`, `descendant-or-self`, `ancestor`,
    /// `ancestor-or-self`): each one after the first multiplies the work by up to the document's depth.
    let deepSteps: Int
    /// Steps that walk the document's order (`following`, `preceding`): each multiplies the work by up to the
    /// number of nodes.
    let wideSteps: Int

    /// Checks and rewrites an expression.
    ///
    /// - Parameter namespaces: Prefixes by namespace URI (`xPathNamespaces`).
    /// - Throws: ``StubDefinitionError`` naming what is wrong: a syntax error, a variable, an unknown function or
    ///   a wrong number of arguments, a prefix `namespaces` does not declare, the `namespace` axis, or an expression that does not
    ///   select nodes (WireMock 2.35 matches nothing with `count(…)` or `boolean(…)`).
    init(_ expression: String, namespaces: [String: String]) throws(StubDefinitionError) {
        self.expression = expression
        var parser = Parser(source: expression, tokens: try Tokenizer.tokens(of: expression), namespaces: namespaces)
        let type = try parser.expression()
        guard parser.position == parser.tokens.count else {
            throw XPathExpression.error(
                expression, "unexpected \(parser.tokens[parser.position].text.debugDescription)")
        }
        guard type == .nodeSet else {
            throw XPathExpression.error(
                expression,
                "selects a \(type) rather than nodes; WireMock 2.35 matches only expressions that select nodes")
        }
        rewritten = parser.output.joined(separator: " ")
        deepSteps = parser.deepSteps
        wideSteps = parser.wideSteps
    }

    /// An upper bound of the work of evaluating the expression over a document of `bytes` bytes, `nodes`
    /// nodes and elements nested `depth` deep, in units of one node or byte visited: the document once per
    /// step that walks it all, times the depth for each further step that walks a subtree or the ancestors
    /// (a node lies in at most `depth` subtrees), times the nodes for each step that walks the document's
    /// order. `//order[id='7']` costs `bytes`; `//*[.//*[.//*]]` costs `bytes × depth²`.
    func estimatedWork(bytes: Int, nodes: Int, depth: Int) -> Int {
        var work = Double(max(bytes, nodes, 1))
        work *= pow(Double(max(depth, 1)), Double(max(deepSteps - 1, 0)))
        work *= pow(Double(max(nodes, 1)), Double(wideSteps))
        return work >= Double(Int.max / 2) ? Int.max / 2 : Int(work)
    }

    static func error(_ expression: String, _ message: String) -> StubDefinitionError {
        StubDefinitionError("XPath \(expression.debugDescription): \(message)")
    }

    enum ValueType: CustomStringConvertible {
        case nodeSet, number, string, boolean
        var description: String {
            switch self {
            case .nodeSet: "node-set"
            case .number: "number"
            case .string: "string"
            case .boolean: "boolean"
            }
        }
    }

    struct Token: Equatable {
        enum Kind { case name, literal, number, symbol }
        var kind: Kind
        var text: String
    }

    /// Splits an expression into XPath 1.0 tokens (§3.7).
    enum Tokenizer {
        static let symbols = [
            "::", "..", "//", "!=", "<=", ">=", "(", ")", "[", "]", ".", "@", ",", "/", "|", "+", "-", "=", "<", ">",
            "*", "$",
        ]

        static func tokens(of expression: String) throws(StubDefinitionError) -> [Token] {
            let characters = Array(expression.unicodeScalars)
            var tokens: [Token] = []
            var index = 0
            // Letters as libxml2's XPath reader takes them, narrowed to a set it surely does: ASCII and
            // Latin-1's. It reads names with XML 1.0 4th edition's tables, which leave out letters Unicode has
            // (U+0450 `ѐ`), fails on them, and Foundation then dereferences a null pointer.
            func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
                scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                    || ((0xC0...0xFF).contains(scalar.value) && scalar.value != 0xD7 && scalar.value != 0xF7)
            }
            func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
                isNameStart(scalar) || "-.".unicodeScalars.contains(scalar) || ("0"..."9").contains(scalar)
            }
            while index < characters.count {
                let scalar = characters[index]
                if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                    index += 1
                } else if scalar == "'" || scalar == "\"" {
                    guard let end = characters[(index + 1)...].firstIndex(of: scalar) else {
                        throw XPathExpression.error(expression, "unterminated string")
                    }
                    tokens.append(
                        Token(kind: .literal, text: String(String.UnicodeScalarView(characters[index...end]))))
                    index = end + 1
                } else if ("0"..."9").contains(scalar)
                    || (scalar == "." && index + 1 < characters.count && ("0"..."9").contains(characters[index + 1]))
                {
                    var end = index
                    while end < characters.count, ("0"..."9").contains(characters[end]) || characters[end] == "." {
                        end += 1
                    }
                    let text = String(String.UnicodeScalarView(characters[index..<end]))
                    guard text.filter({ $0 == "." }).count <= 1 else {
                        throw XPathExpression.error(expression, "bad number \(text.debugDescription)")
                    }
                    tokens.append(Token(kind: .number, text: text))
                    index = end
                } else if isNameStart(scalar) {
                    var end = index
                    while end < characters.count, isNameCharacter(characters[end]) { end += 1 }
                    // A QName (`p:name`) or `p:*` is one token; `::` after a name is the axis separator.
                    if end + 1 < characters.count, characters[end] == ":", characters[end + 1] != ":" {
                        if characters[end + 1] == "*" {
                            end += 2
                        } else if isNameStart(characters[end + 1]) {
                            end += 1
                            while end < characters.count, isNameCharacter(characters[end]) { end += 1 }
                        }
                    }
                    tokens.append(Token(kind: .name, text: String(String.UnicodeScalarView(characters[index..<end]))))
                    index = end
                } else if let symbol = symbols.first(where: { symbol in
                    let scalars = Array(symbol.unicodeScalars)
                    return index + scalars.count <= characters.count
                        && Array(characters[index..<(index + scalars.count)]) == scalars
                }) {
                    tokens.append(Token(kind: .symbol, text: symbol))
                    index += symbol.unicodeScalars.count
                } else if !scalar.isASCII {
                    throw XPathExpression.error(
                        expression,
                        "unexpected \(String(scalar).debugDescription): names may use ASCII and Latin-1 letters only")
                } else {
                    throw XPathExpression.error(expression, "unexpected \(String(scalar).debugDescription)")
                }
            }
            return tokens
        }
    }

    /// A recursive-descent reader of XPath 1.0's grammar (§3.1 to §3.7, §2), typing every expression.
    struct Parser {
        let source: String
        let tokens: [Token]
        let namespaces: [String: String]
        var position = 0
        var output: [String] = []
        /// How many predicates the parser is inside: 0 where the context node is the one evaluation starts at.
        private var predicateDepth = 0
        /// ``XPathExpression/deepSteps`` so far.
        var deepSteps = 0
        /// ``XPathExpression/wideSteps`` so far.
        var wideSteps = 0

        init(source: String, tokens: [Token], namespaces: [String: String]) {
            self.source = source
            self.tokens = tokens
            self.namespaces = namespaces
        }
        private func error(_ message: String) -> StubDefinitionError { XPathExpression.error(source, message) }
        private func peek(_ offset: Int = 0) -> Token? {
            position + offset < tokens.count ? tokens[position + offset] : nil
        }
        private func isSymbol(_ text: String, _ offset: Int = 0) -> Bool {
            peek(offset).map { $0.kind == .symbol && $0.text == text } ?? false
        }
        private func isOperatorName(_ text: String) -> Bool {
            peek().map { $0.kind == .name && $0.text == text } ?? false
        }
        private mutating func take() -> Token {
            let token = tokens[position]
            position += 1
            output.append(token.text)
            return token
        }
        private mutating func expect(_ text: String) throws(StubDefinitionError) {
            guard isSymbol(text) else { throw error("expected \(text.debugDescription)") }
            _ = take()
        }

        /// How deeply expressions nest (parentheses, predicates, arguments): bounded, so a stub from the admin
        /// API cannot exhaust the stack.
        private var nesting = 0
        static let maximumNesting = 64

        mutating func expression() throws(StubDefinitionError) -> ValueType {
            nesting += 1
            defer { nesting -= 1 }
            guard nesting <= Parser.maximumNesting else {
                throw error("nests deeper than \(Parser.maximumNesting) levels")
            }
            var type = try binary(level: 0)
            while isOperatorName("or") {
                _ = take()
                _ = try binary(level: 0)
                type = .boolean
            }
            return type
        }

        /// Levels: 0 `and`, 1 `=` `!=`, 2 `<` `<=` `>` `>=`, 3 `+` `-`, 4 `*` `div` `mod`.
        private mutating func binary(level: Int) throws(StubDefinitionError) -> ValueType {
            guard level <= 4 else { return try unary() }
            let operators: [[String]] = [
                ["and"], ["=", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "div", "mod"],
            ]
            var type = try binary(level: level + 1)
            while let token = peek(), operators[level].contains(token.text),
                token.kind == .symbol || (token.kind == .name && ["and", "div", "mod"].contains(token.text))
            {
                _ = take()
                _ = try binary(level: level + 1)
                type = level <= 2 ? .boolean : .number
            }
            return type
        }

        private mutating func unary() throws(StubDefinitionError) -> ValueType {
            if isSymbol("-") {
                _ = take()
                _ = try unary()
                return .number
            }
            var type = try path()
            while isSymbol("|") {
                _ = take()
                let next = try path()
                guard type == .nodeSet, next == .nodeSet else { throw error("| joins node-sets only") }
                type = .nodeSet
            }
            return type
        }

        private mutating func path() throws(StubDefinitionError) -> ValueType {
            guard let token = peek() else { throw error("ends too soon") }
            let startsFilter: Bool
            switch token.kind {
            case .literal, .number: startsFilter = true
            case .symbol: startsFilter = token.text == "(" || token.text == "$"
            case .name:
                // A function call, unless the name is a node type test (`text()`, `node()`, …).
                startsFilter =
                    isSymbol("(", 1) && !["comment", "text", "processing-instruction", "node"].contains(token.text)
            }
            if !startsFilter { return try locationPath() }
            var type = try primary()
            while isSymbol("[") {
                guard type == .nodeSet else { throw error("a predicate needs a node-set, not a \(type)") }
                try predicate()
            }
            if isSymbol("/") || isSymbol("//") {
                guard type == .nodeSet else { throw error("a path needs a node-set, not a \(type)") }
                if isSymbol("//") { deepSteps += 1 }
                _ = take()
                try relativePath()
                type = .nodeSet
            }
            return type
        }

        private mutating func locationPath() throws(StubDefinitionError) -> ValueType {
            if isSymbol("/") {
                _ = take()
                if let token = peek(), startsStep(token) { try relativePath() }
                return .nodeSet
            }
            if isSymbol("//") {
                _ = take()
                deepSteps += 1
            } else if predicateDepth == 0 {
                // Outside predicates a relative path starts at the document, as in WireMock (Java's XPath on the
                // parsed Document): `stuff/box` is `/stuff/box`. Foundation on Linux starts at the document's first
                // child instead, so the path is made absolute.
                output.append("/")
            }
            try relativePath()
            return .nodeSet
        }

        private func startsStep(_ token: Token) -> Bool {
            token.kind == .name || (token.kind == .symbol && [".", "..", "@", "*"].contains(token.text))
        }

        private mutating func relativePath() throws(StubDefinitionError) {
            try step()
            while isSymbol("/") || isSymbol("//") {
                if isSymbol("//") { deepSteps += 1 }
                _ = take()
                try step()
            }
        }

        private static let axes: Set<String> = [
            "ancestor", "ancestor-or-self", "attribute", "child", "descendant", "descendant-or-self", "following",
            "following-sibling", "namespace", "parent", "preceding", "preceding-sibling", "self",
        ]

        private mutating func step() throws(StubDefinitionError) {
            if isSymbol(".") || isSymbol("..") {
                _ = take()
                return
            }
            if isSymbol("@") {
                _ = take()
            } else if let token = peek(), token.kind == .name, isSymbol("::", 1) {
                guard Parser.axes.contains(token.text) else {
                    throw error("unknown axis \(token.text.debugDescription)")
                }
                // Foundation on Linux crashes wrapping the namespace nodes it selects.
                guard token.text != "namespace" else { throw error("the namespace axis is not supported") }
                if token.text.hasPrefix("descendant") || token.text.hasPrefix("ancestor") { deepSteps += 1 }
                if token.text == "following" || token.text == "preceding" { wideSteps += 1 }
                _ = take()
                _ = take()
            }
            try nodeTest()
            while isSymbol("[") { try predicate() }
        }

        private mutating func nodeTest() throws(StubDefinitionError) {
            guard let token = peek() else { throw error("expected a name test") }
            if token.kind == .symbol, token.text == "*" {
                _ = take()
                return
            }
            guard token.kind == .name else { throw error("expected a name test, found \(token.text.debugDescription)") }
            if ["comment", "text", "node", "processing-instruction"].contains(token.text), isSymbol("(", 1) {
                _ = take()
                _ = take()
                if token.text == "processing-instruction", peek()?.kind == .literal { _ = take() }
                try expect(")")
                return
            }
            position += 1
            guard let colon = token.text.firstIndex(of: ":") else {
                output.append(token.text)
                return
            }
            let prefix = String(token.text[..<colon])
            let local = String(token.text[token.text.index(after: colon)...])
            // `xml` is bound without a declaration (Namespaces in XML 1.0 §3).
            guard let uri = namespaces[prefix] ?? (prefix == "xml" ? "http://www.w3.org/XML/1998/namespace" : nil)
            else {
                throw error("namespace prefix \(prefix.debugDescription) is not declared in xPathNamespaces")
            }
            guard let quotedURI = Parser.quoted(uri) else {
                throw error("namespace \(uri.debugDescription) holds both quote marks")
            }
            output.append(
                local == "*"
                    ? "*[namespace-uri()=\(quotedURI)]"
                    : "*[local-name()=\(Parser.quoted(local) ?? "''") and namespace-uri()=\(quotedURI)]")
        }

        private static func quoted(_ text: String) -> String? {
            if !text.contains("'") { return "'\(text)'" }
            if !text.contains("\"") { return "\"\(text)\"" }
            return nil
        }

        private mutating func predicate() throws(StubDefinitionError) {
            try expect("[")
            predicateDepth += 1
            _ = try expression()
            predicateDepth -= 1
            try expect("]")
        }

        /// XPath 1.0's core functions (§4): result type, fewest and most arguments (`nil`: any number), and
        /// whether the arguments must be node-sets.
        private static let functions: [String: (ValueType, Int, Int?, Bool)] = [
            "last": (.number, 0, 0, false), "position": (.number, 0, 0, false), "count": (.number, 1, 1, true),
            "id": (.nodeSet, 1, 1, false), "local-name": (.string, 0, 1, true),
            "namespace-uri": (.string, 0, 1, true), "name": (.string, 0, 1, true), "string": (.string, 0, 1, false),
            "concat": (.string, 2, nil, false), "starts-with": (.boolean, 2, 2, false),
            "contains": (.boolean, 2, 2, false), "substring-before": (.string, 2, 2, false),
            "substring-after": (.string, 2, 2, false), "substring": (.string, 2, 3, false),
            "string-length": (.number, 0, 1, false), "normalize-space": (.string, 0, 1, false),
            "translate": (.string, 3, 3, false), "boolean": (.boolean, 1, 1, false), "not": (.boolean, 1, 1, false),
            "true": (.boolean, 0, 0, false), "false": (.boolean, 0, 0, false), "lang": (.boolean, 1, 1, false),
            "number": (.number, 0, 1, false), "sum": (.number, 1, 1, true), "floor": (.number, 1, 1, false),
            "ceiling": (.number, 1, 1, false), "round": (.number, 1, 1, false),
        ]

        private mutating func primary() throws(StubDefinitionError) -> ValueType {
            let token = peek()!
            switch token.kind {
            case .literal:
                _ = take()
                return .string
            case .number:
                _ = take()
                return .number
            case .symbol where token.text == "$":
                throw error("variables are not supported (\(token.text)\(peek(1)?.text ?? ""))")
            case .symbol:
                try expect("(")
                let type = try expression()
                try expect(")")
                return type
            case .name:
                guard let (result, fewest, most, nodeSets) = Parser.functions[token.text] else {
                    throw error("unsupported function \(token.text)()")
                }
                _ = take()
                try expect("(")
                var count = 0
                while !isSymbol(")") {
                    if count > 0 { try expect(",") }
                    let type = try expression()
                    if nodeSets, type != .nodeSet {
                        throw error("\(token.text)() takes a node-set, not a \(type)")
                    }
                    count += 1
                }
                try expect(")")
                guard count >= fewest, most.map({ count <= $0 }) ?? true else {
                    throw error("\(token.text)() does not take \(count) argument\(count == 1 ? "" : "s")")
                }
                return result
            }
        }
    }
}
