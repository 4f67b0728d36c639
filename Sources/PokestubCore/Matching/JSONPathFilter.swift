/// A JSONPath filter's test (`[?(…)]`), as Jayway JsonPath 2 (which WireMock 2.35 uses) reads it.
///
/// Checked against WireMock 2.35.1's jar: `=~` matches the whole value (Java's `Matcher.matches`) with the
/// flags after the closing `/` (`i`, `m`, `s`, `x`); `!=` passes for an item that lacks the member (the other
/// operators do not); `size` is an array's count or a string's length; `empty true` passes an empty array or
/// string; `in`/`nin` look the value up in a list, `subsetof`/`anyof`/`noneof` compare an array with one, and
/// `contains` looks for a substring or an array item.
indirect enum JSONPathFilter: Sendable, Hashable {
    /// `@.name`: the item has the member (even `null`).
    case exists([String])
    /// `!@.name`: it has not.
    case notExists([String])
    /// `left OPERATOR right`.
    case compare(Operand, Operator, Operand)
    case and(JSONPathFilter, JSONPathFilter)
    case or(JSONPathFilter, JSONPathFilter)

    /// A side of a comparison.
    enum Operand: Sendable, Hashable {
        /// A member path under the item (`@.a.b` is `["a", "b"]`; `@` alone is `[]`).
        case path([String])
        case literal(JSONValue)
        case regex(StubRegex)
    }

    /// The operators Jayway JsonPath 2 has.
    enum Operator: String, Sendable, Hashable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case matchesRegex = "=~", `in` = "in", notIn = "nin", subsetOf = "subsetof", anyOf = "anyof"
        case noneOf = "noneof", size = "size", empty = "empty", contains = "contains"
    }

    /// A `/pattern/flags` regular expression: Java's flags become ICU inline flags, and `.` does not match a
    /// line break unless `s` is given (Java's default, unlike ``StubRegex``'s own).
    static func regex(_ pattern: String, flags: String) throws(StubDefinitionError) -> StubRegex {
        guard flags.allSatisfy({ "imsx".contains($0) }) else {
            throw StubDefinitionError(
                "unsupported regular expression flags \(flags.debugDescription) (supported: i m s x)")
        }
        let inline = "(?" + flags + (flags.contains("s") ? "" : "-s") + ")"
        return try StubRegex(inline + pattern)
    }

    /// Whether `item` passes. Operands are read from `item` and only the values compared are made
    /// ``JSONValue``s.
    func passes<Node: JSONTreeNode>(_ item: Node) -> Bool {
        switch self {
        case .exists(let path): return JSONPathFilter.resolve(path, in: item) != nil
        case .notExists(let path): return JSONPathFilter.resolve(path, in: item) == nil
        case .and(let lhs, let rhs): return lhs.passes(item) && rhs.passes(item)
        case .or(let lhs, let rhs): return lhs.passes(item) || rhs.passes(item)
        case .compare(let left, let operation, let right):
            guard let lhs = JSONPathFilter.value(left, in: item) else { return operation == .notEqual }
            if case .regex(let regex) = right {
                guard operation == .matchesRegex, case .string(let text) = lhs else { return false }
                return regex.matches(text)
            }
            guard let rhs = JSONPathFilter.value(right, in: item) else { return operation == .notEqual }
            return JSONPathFilter.holds(lhs, operation, rhs)
        }
    }

    private static func resolve<Node: JSONTreeNode>(_ path: [String], in item: Node) -> Node? {
        var selected: Node? = item
        for key in path { selected = selected?.member(named: key) }
        return selected
    }

    private static func value<Node: JSONTreeNode>(_ operand: Operand, in item: Node) -> JSONValue? {
        switch operand {
        case .path(let path): resolve(path, in: item)?.materialized()
        case .literal(let value): value
        case .regex: nil
        }
    }

    private static func holds(_ lhs: JSONValue, _ operation: Operator, _ rhs: JSONValue) -> Bool {
        func contains(_ list: JSONValue, _ value: JSONValue) -> Bool {
            guard case .array(let items) = list else { return false }
            return items.contains { $0.jsonEquals(value) }
        }
        switch operation {
        case .equal: return lhs.jsonEquals(rhs)
        case .notEqual: return !lhs.jsonEquals(rhs)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if let left = lhs.numberValue, let right = rhs.numberValue { return ordered(left, right, operation) }
            if case .string(let left) = lhs, case .string(let right) = rhs { return ordered(left, right, operation) }
            return false
        case .matchesRegex: return false  // only with a /regex/, handled in passes(_:)
        case .in: return contains(rhs, lhs)
        case .notIn: return !contains(rhs, lhs)
        case .subsetOf, .anyOf, .noneOf:
            guard case .array(let items) = lhs else { return false }
            switch operation {
            case .subsetOf: return items.allSatisfy { contains(rhs, $0) }
            case .anyOf: return items.contains { contains(rhs, $0) }
            default: return !items.contains { contains(rhs, $0) }
            }
        case .size:
            guard let wanted = rhs.intValue else { return false }
            switch lhs {
            case .array(let items): return items.count == wanted
            case .string(let text): return text.count == wanted
            default: return false
            }
        case .empty:
            guard case .bool(let wanted) = rhs else { return false }
            switch lhs {
            case .array(let items): return items.isEmpty == wanted
            case .string(let text): return text.isEmpty == wanted
            default: return false
            }
        case .contains:
            if case .string(let text) = lhs, case .string(let part) = rhs { return text.containsScalars(part) }
            return contains(lhs, rhs)
        }
    }

    private static func ordered<T: Comparable>(_ lhs: T, _ rhs: T, _ operation: Operator) -> Bool {
        switch operation {
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        default: lhs >= rhs
        }
    }
}
