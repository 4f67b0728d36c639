/// Reads Handlebars template text into ``TemplateNode``s, once, when a stub loads.
///
/// The syntax is Handlebars.java's (the dialect of WireMock 2.35's response templating): `{{path}}`,
/// `{{{raw}}}`, `{{& raw}}`, `{{helper param key=value}}`, sub-expressions `(helper …)`, blocks
/// `{{#name …}}…{{else}}…{{/name}}` with `{{else if …}}` chains, inverted sections `{{^name}}…{{/name}}`,
/// comments `{{! … }}` and `{{!-- … --}}`, `\{{` for a literal `{{`, and `{{~` to drop the white space before
/// a mustache. A helper call naming a helper pokestub does not have is refused here rather than at serve time,
/// and every name is resolved here (``TemplateNode``): a helper call holds its ``TemplateHelper``, a block its
/// ``TemplateBlockKind``, so rendering looks up only the values a template reads.
struct TemplateParser {
    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    /// Blocks and `{{else if}}` links open around the current position.
    private var depth = 0

    /// How deeply blocks (each `{{else if}}` counting as one more), and sub-expressions within a mustache,
    /// may nest: parsing and rendering recurse once per level, and a thread's stack is finite.
    static let maximumNesting = 100

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Parses the whole template.
    mutating func parse() throws(TemplateSyntaxError) -> [TemplateNode] {
        let (nodes, end) = try parseNodes(until: nil)
        if let end {
            throw TemplateSyntaxError("\(end.source) closes nothing", line: end.line)
        }
        return nodes
    }

    /// What stopped a run of nodes: `{{else …}}` or `{{/name}}`.
    private struct Terminator {
        var isElse: Bool
        /// For `{{/name}}` the name; for `{{else if x}}` the expression after `else`.
        var name: String
        var elseExpression: TemplateExpression?
        var source: String
        var line: Int
    }

    private mutating func parseNodes(
        until block: String?
    ) throws(TemplateSyntaxError) -> (
        [TemplateNode], Terminator?
    ) {
        var nodes: [TemplateNode] = []
        var text: [UInt8] = []
        func flush() {
            if !text.isEmpty { nodes.append(.text(String(decoding: text, as: UTF8.self))) }
            text.removeAll(keepingCapacity: true)
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\\"), starts(with: "\\{{") {
                text += Array("{{".utf8)
                position += 3
                continue
            }
            guard byte == UInt8(ascii: "{"), starts(with: "{{") else {
                if byte == UInt8(ascii: "\n") { line += 1 }
                text.append(byte)
                position += 1
                continue
            }
            let startLine = line
            let start = position
            var tripleStash = starts(with: "{{{")
            position += tripleStash ? 3 : 2
            if position < bytes.count, bytes[position] == UInt8(ascii: "~") {
                position += 1
                while let last = text.last, last == 32 || last == 9 || last == 10 || last == 13 { text.removeLast() }
            }
            // Comments first: their text may hold `}}`.
            if starts(with: "!--") {
                guard let end = find("--}}", from: position) else {
                    throw TemplateSyntaxError("unclosed comment {{!--", line: startLine)
                }
                countLines(from: position, to: end)
                position = end + 4
                continue
            }
            if starts(with: "!") {
                guard let end = find("}}", from: position) else {
                    throw TemplateSyntaxError("unclosed comment {{!", line: startLine)
                }
                countLines(from: position, to: end)
                position = end + 2
                continue
            }
            let closer = tripleStash ? "}}}" : "}}"
            guard let end = findCloser(closer, from: position) else {
                let shown = String(decoding: bytes[start..<min(bytes.count, start + 40)], as: UTF8.self)
                throw TemplateSyntaxError("unclosed mustache \(shown)", line: startLine)
            }
            if !tripleStash, end + 2 < bytes.count, bytes[end + 2] == UInt8(ascii: "}") {
                // Handlebars.java reads `}}}` as the end of a triple-stash and refuses it after `{{`, so
                // WireMock answers such a template (often JSON: `{"n": {{x}}}`) with a 500.
                let shown = String(decoding: bytes[start..<(end + 3)], as: UTF8.self)
                throw TemplateSyntaxError(
                    "\(shown) ends with }}}, which Handlebars reads as the end of a {{{raw}}} mustache; "
                        + "put a space before the last }", line: startLine)
            }
            var innerEnd = end
            if innerEnd > position, bytes[innerEnd - 1] == UInt8(ascii: "~") { innerEnd -= 1 }
            let inner = String(decoding: bytes[position..<innerEnd], as: UTF8.self)
            let source = String(decoding: bytes[start..<(end + closer.utf8.count)], as: UTF8.self)
            countLines(from: position, to: end)
            position = end + closer.utf8.count
            var content = Substring(inner)
            var kind: UInt8 = 0
            if !tripleStash, let first = content.utf8.first,
                [UInt8(ascii: "#"), UInt8(ascii: "/"), UInt8(ascii: "^"), UInt8(ascii: "&")].contains(first)
            {
                kind = first
                content = content.dropFirst()
            }
            if kind == UInt8(ascii: "&") {
                tripleStash = true
                kind = 0
            }
            let trimmed = content.trimmingTemplateSpace()
            switch kind {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                flush()
                let expression = try TemplateParser.expression(trimmed, source: source, line: startLine)
                try TemplateParser.checkBlock(expression)
                nodes.append(try parseBlock(expression, inverted: kind == UInt8(ascii: "^")))
            case UInt8(ascii: "/"):
                flush()
                return (nodes, Terminator(isElse: false, name: trimmed, source: source, line: startLine))
            default:
                if !tripleStash, trimmed == "else" || trimmed.hasPrefix("else ") || trimmed == "^" {
                    flush()
                    var elseExpression: TemplateExpression?
                    if trimmed.hasPrefix("else ") {
                        let rest = String(trimmed.dropFirst(5)).trimmingTemplateSpace()
                        elseExpression = try TemplateParser.expression(rest, source: source, line: startLine)
                    }
                    guard block != nil else {
                        throw TemplateSyntaxError("\(source) outside a block", line: startLine)
                    }
                    return (
                        nodes,
                        Terminator(
                            isElse: true, name: "", elseExpression: elseExpression, source: source, line: startLine)
                    )
                }
                flush()
                let expression = try TemplateParser.expression(trimmed, source: source, line: startLine)
                try TemplateParser.checkHelper(expression)
                nodes.append(.output(expression, escaped: !tripleStash))
            }
        }
        flush()
        if let block {
            throw TemplateSyntaxError("{{#\(block)}} is never closed with {{/\(block)}}", line: line)
        }
        return (nodes, nil)
    }

    /// Reads a block's body and `{{else}}` parts up to its `{{/name}}`.
    private mutating func parseBlock(
        _ expression: TemplateExpression, inverted: Bool
    ) throws(TemplateSyntaxError)
        -> TemplateNode
    {
        let name = expression.head.dottedName
        try enterNesting(expression)
        defer { depth -= 1 }
        let (body, first) = try parseNodes(until: name)
        var inverse: [TemplateNode] = []
        var terminator = first
        if let stop = terminator, stop.isElse { (inverse, terminator) = try parseElseChain(after: stop, name: name) }
        guard let end = terminator, !end.isElse, end.name == name else {
            let found = terminator.map { " (found \($0.source))" } ?? ""
            throw TemplateSyntaxError("{{#\(name)}} is never closed with {{/\(name)}}\(found)", line: expression.line)
        }
        return inverted
            ? .block(TemplateBlock(expression, body: inverse, inverse: body))
            : .block(TemplateBlock(expression, body: body, inverse: inverse))
    }

    /// The inverse part that starts at an `{{else …}}` after an `{{else if}}` body, up to the closing tag.
    private mutating func parseElseChain(
        after stop: Terminator, name: String
    ) throws(TemplateSyntaxError) -> (
        [TemplateNode], Terminator?
    ) {
        if let chained = stop.elseExpression {
            try TemplateParser.checkBlock(chained)
            try enterNesting(chained)
            defer { depth -= 1 }
            let (body, next) = try parseNodes(until: name)
            var inverse: [TemplateNode] = []
            var end = next
            if let next, next.isElse { (inverse, end) = try parseElseChain(after: next, name: name) }
            return ([.block(TemplateBlock(chained, body: body, inverse: inverse))], end)
        }
        let (rest, end) = try parseNodes(until: name)
        if let end, end.isElse {
            throw TemplateSyntaxError("a second \(end.source) in {{#\(name)}}", line: end.line)
        }
        return (rest, end)
    }

    /// Counts one more level of nesting, refusing the template past ``maximumNesting``.
    private mutating func enterNesting(_ expression: TemplateExpression) throws(TemplateSyntaxError) {
        depth += 1
        guard depth <= TemplateParser.maximumNesting else {
            throw TemplateSyntaxError(
                "\(expression.source) nests blocks more than \(TemplateParser.maximumNesting) deep",
                line: expression.line)
        }
    }

    // MARK: Expressions

    /// Parses a mustache's content: a head, then parameters and `key=value` pairs.
    static func expression(
        _ text: String, source: String, line: Int
    ) throws(TemplateSyntaxError)
        -> TemplateExpression
    {
        var tokens = try tokenize(text, source: source, line: line)
        guard !tokens.isEmpty else { throw TemplateSyntaxError("empty mustache \(source)", line: line) }
        var open = 0
        for token in tokens {
            if case .open = token { open += 1 } else if case .close = token { open -= 1 }
            guard open <= maximumNesting else {
                throw TemplateSyntaxError(
                    "\(source) nests sub-expressions more than \(maximumNesting) deep", line: line)
            }
        }
        var position = 0
        return try expression(from: &tokens, position: &position, source: source, line: line, closing: false)
    }

    private enum Token {
        case word(String)
        case string(String)
        case open
        case close
        case equals

        var isClose: Bool {
            if case .close = self { return true }
            return false
        }
    }

    private static func expression(
        from tokens: inout [Token], position: inout Int, source: String, line: Int, closing: Bool
    ) throws(TemplateSyntaxError) -> TemplateExpression {
        guard position < tokens.count, case .word(let headWord) = tokens[position] else {
            throw TemplateSyntaxError("expected a helper name or a path in \(source)", line: line)
        }
        position += 1
        let head = try path(headWord, source: source, line: line)
        var parameters: [TemplateArgument] = []
        var hash: [(name: String, value: TemplateArgument)] = []
        while position < tokens.count {
            if case .close = tokens[position] {
                guard closing else { throw TemplateSyntaxError("unbalanced ) in \(source)", line: line) }
                position += 1
                return TemplateExpression(head: head, parameters: parameters, hash: hash, source: source, line: line)
            }
            if position + 1 < tokens.count, case .word(let name) = tokens[position], case .equals = tokens[position + 1]
            {
                position += 2
                hash.append((name, try argument(from: &tokens, position: &position, source: source, line: line)))
                continue
            }
            guard hash.isEmpty else {
                throw TemplateSyntaxError("a parameter after key=value pairs in \(source)", line: line)
            }
            parameters.append(try argument(from: &tokens, position: &position, source: source, line: line))
        }
        if closing { throw TemplateSyntaxError("unclosed ( in \(source)", line: line) }
        return TemplateExpression(head: head, parameters: parameters, hash: hash, source: source, line: line)
    }

    private static func argument(
        from tokens: inout [Token], position: inout Int, source: String, line: Int
    ) throws(TemplateSyntaxError) -> TemplateArgument {
        guard position < tokens.count else { throw TemplateSyntaxError("missing value in \(source)", line: line) }
        let token = tokens[position]
        position += 1
        switch token {
        case .string(let text): return .literal(.string(text))
        case .open:
            let call = try expression(from: &tokens, position: &position, source: source, line: line, closing: true)
            try checkHelper(call, mustBeHelper: true)
            return .call(call)
        case .word(let word):
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null", "undefined": return .literal(.null)
            default:
                if let number = TemplateNumber(literal: word) { return .literal(.number(number)) }
                return .path(try path(word, source: source, line: line))
            }
        case .close, .equals:
            throw TemplateSyntaxError("unexpected \(token.isClose ? ")" : "=") in \(source)", line: line)
        }
    }

    /// Splits `a.b 'x y' key=(sub 1)` into words, quoted strings, parentheses and `=`.
    private static func tokenize(_ text: String, source: String, line: Int) throws(TemplateSyntaxError) -> [Token] {
        var tokens: [Token] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "(" {
                tokens.append(.open)
                index += 1
            } else if character == ")" {
                tokens.append(.close)
                index += 1
            } else if character == "=" {
                tokens.append(.equals)
                index += 1
            } else if character == "'" || character == "\"" {
                var value = ""
                index += 1
                var closed = false
                while index < characters.count {
                    let next = characters[index]
                    if next == "\\", index + 1 < characters.count, characters[index + 1] == character {
                        value.append(character)
                        index += 2
                    } else if next == character {
                        closed = true
                        index += 1
                        break
                    } else {
                        value.append(next)
                        index += 1
                    }
                }
                guard closed else { throw TemplateSyntaxError("unclosed string in \(source)", line: line) }
                tokens.append(.string(value))
            } else {
                var word = ""
                var inBrackets = false
                while index < characters.count {
                    let next = characters[index]
                    if next == "[" { inBrackets = true }
                    if next == "]" { inBrackets = false }
                    if !inBrackets, next.isWhitespace || next == "(" || next == ")" || next == "=" { break }
                    word.append(next)
                    index += 1
                }
                tokens.append(.word(word))
            }
        }
        return tokens
    }

    /// Parses a path: segments split on `.` or `/`, `[literal]` segments, `this`, `..` and `@data`.
    static func path(_ word: String, source: String, line: Int) throws(TemplateSyntaxError) -> TemplatePath {
        var text = Substring(word)
        var isData = false
        if text.hasPrefix("@") {
            isData = true
            text = text.dropFirst()
        }
        var segments: [String] = []
        var current = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "[" {
                guard let close = text[index...].firstIndex(of: "]") else {
                    throw TemplateSyntaxError("unclosed [ in \(source)", line: line)
                }
                current += text[text.index(after: index)..<close]
                index = text.index(after: close)
            } else if character == "." || character == "/" {
                if text[index...].hasPrefix("..") {
                    segments.append(current.isEmpty ? ".." : current)
                    if !current.isEmpty { segments.append("..") }
                    current = ""
                    index = text.index(index, offsetBy: 2)
                    continue
                }
                segments.append(current)
                current = ""
                index = text.index(after: index)
            } else {
                current.append(character)
                index = text.index(after: index)
            }
        }
        segments.append(current)
        var parents = 0
        var isExplicit = false
        segments = segments.filter { !$0.isEmpty || segments.count == 1 }
        while let first = segments.first, first == ".." || first == "this" || first == "." || first.isEmpty {
            if first == ".." { parents += 1 } else { isExplicit = true }
            segments.removeFirst()
        }
        return TemplatePath(segments: segments, parents: parents, isData: isData, isExplicit: isExplicit)
    }

    /// Refuses a helper call naming a helper pokestub does not have.
    static func checkHelper(
        _ expression: TemplateExpression, mustBeHelper: Bool = false
    )
        throws(TemplateSyntaxError)
    {
        let wantsHelper = mustBeHelper || !expression.parameters.isEmpty || !expression.hash.isEmpty
        guard wantsHelper else { return }
        guard expression.helper != nil else {
            let name = expression.head.dottedName
            throw TemplateSyntaxError(
                "unsupported helper \(name.debugDescription) in \(expression.source)", line: expression.line)
        }
    }

    /// Refuses a block naming a helper pokestub does not have (a block over a plain path is a section).
    static func checkBlock(_ expression: TemplateExpression) throws(TemplateSyntaxError) {
        if let name = expression.head.blockName, TemplateBlockKind.names.contains(name) { return }
        try checkHelper(expression)
    }

    // MARK: Scanning

    private func starts(with text: String) -> Bool {
        let prefix = Array(text.utf8)
        guard position + prefix.count <= bytes.count else { return false }
        return bytes[position..<(position + prefix.count)].elementsEqual(prefix)
    }

    private func find(_ text: String, from start: Int) -> Int? {
        let needle = Array(text.utf8)
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The closing `}}` (or `}}}`) of a mustache, skipping any inside quoted strings.
    private func findCloser(_ closer: String, from start: Int) -> Int? {
        let needle = Array(closer.utf8)
        var index = start
        var quote: UInt8?
        while index + needle.count <= bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    private mutating func countLines(from start: Int, to end: Int) {
        for index in start..<end where bytes[index] == UInt8(ascii: "\n") { line += 1 }
    }
}

extension Substring {
    fileprivate func trimmingTemplateSpace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

extension String {
    fileprivate func trimmingTemplateSpace() -> String { Substring(self).trimmingTemplateSpace() }
}
