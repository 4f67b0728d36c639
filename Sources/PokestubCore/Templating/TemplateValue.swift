import Foundation

/// A value a template looks up, passes to a helper or prints.
///
/// The cases follow the Java objects WireMock 2.35 puts in its template model, because how they print and
/// whether they count as true is what trees depend on: a query parameter or header is a "list or single"
/// (prints its first value; `.[n]` picks one), `request.pathSegments` prints as the path, a map prints as
/// `{a=1, b=2}`, and a JSON object from `jsonPath` prints as Jackson's pretty JSON.
///
/// Only the two rare cases of more than two words are `indirect`, so that a value is at most two words and a
/// tag to copy (rendering copies values at every step) and a helper's result (a number, a truth value) is made
/// without a heap allocation of its own.
enum TemplateValue: Sendable {
    case null
    case bool(Bool)
    case number(TemplateNumber)
    case string(String)
    case list([TemplateValue])
    /// A query parameter's or header's values (WireMock's `ListOrSingle`: prints its first value).
    case multi([String])
    /// `request.pathSegments`: prints as the path, indexes as the segments.
    indirect case pathSegments(path: String, segments: [String])
    case map(TemplateMap)
    /// A value read from a JSON document (`jsonPath`, `parseJson`).
    case json(JSONValue)
    /// A date, printed with its format and time zone (WireMock's `RenderableDate`).
    indirect case date(TemplateDate)

    /// The text `{{value}}` prints before HTML escaping (Java's `toString` of the model object).
    var text: String {
        switch self {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number.text
        case .string(let text): text
        case .list(let items): "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .multi(let values): values.first ?? ""
        case .pathSegments(let path, _): path
        case .map(let map):
            "{" + (0..<map.count).map { "\(map.key(at: $0))=\(map.value(at: $0).text)" }.joined(separator: ", ") + "}"
        case .json(let json): JacksonText.text(of: json)
        case .date(let date): date.text
        }
    }

    /// Handlebars.java's truth: `null`, `false`, `""`, `0` and empty lists and maps are false.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let flag): flag
        case .number(let number): number.value != 0
        case .string(let text): !text.isEmpty
        case .list(let items): !items.isEmpty
        case .multi(let values): !values.isEmpty
        case .pathSegments(_, let segments): !segments.isEmpty
        case .map(let map): map.count > 0
        case .json(let json):
            switch json {
            case .null: false
            case .bool(let flag): flag
            case .string(let text): !text.isEmpty
            case .array(let items): !items.isEmpty
            case .integer(let value): value != 0
            case .double(let value): value != 0
            case .object: true
            }
        case .date: true
        }
    }

    /// The member `name` (a key, or an index for lists), or `nil`.
    func member(_ name: String) -> TemplateValue? {
        member(TemplatePathSegment(name))
    }

    /// The member a path segment names (a key, or its index for lists), or `nil`.
    func member(_ segment: TemplatePathSegment) -> TemplateValue? {
        switch self {
        case .map(let map): return map.value(for: segment)
        case .list(let items): return segment.index.flatMap { items.indices.contains($0) ? items[$0] : nil }
        case .multi(let values):
            return segment.index.flatMap { values.indices.contains($0) ? .string(values[$0]) : nil }
        case .pathSegments(_, let segments):
            return segment.index.flatMap { segments.indices.contains($0) ? .string(segments[$0]) : nil }
        case .json(let json):
            switch json {
            case .object(let members):
                // A small object (a list entry's `name` and `url`) is searched without hashing the name: a
                // lookup walking out through a loop's elements to a variable misses in every one.
                if members.count <= 4 {
                    for (key, value) in members where key == segment.name { return TemplateValue(json: value) }
                    return nil
                }
                return members[segment.name].map(TemplateValue.init(json:))
            case .array(let items):
                return segment.index.flatMap { items.indices.contains($0) ? TemplateValue(json: items[$0]) : nil }
            default: return nil
            }
        default: return nil
        }
    }

    /// The elements `#each` visits, with their keys (`@key`) for maps.
    var elements: [(key: String?, value: TemplateValue)] {
        switch self {
        case .list(let items): return items.map { (nil, $0) }
        case .multi(let values): return values.map { (nil, .string($0)) }
        case .pathSegments(_, let segments): return segments.map { (nil, .string($0)) }
        case .map(let map): return (0..<map.count).map { (map.key(at: $0), map.value(at: $0)) }
        case .json(.array(let items)): return items.map { (nil, TemplateValue(json: $0)) }
        case .json(.object(let members)):
            return members.keys.sorted().map { ($0, TemplateValue(json: members[$0]!)) }
        default: return []
        }
    }

    /// Whether ``elements`` are read by position (``element(at:)``): a list, a query's values, path segments
    /// or a JSON array; maps and JSON objects are not.
    var isIndexed: Bool {
        switch self {
        case .list, .multi, .pathSegments, .json(.array): true
        default: false
        }
    }

    /// The element at `index` (within ``elementCount``) of a value that ``isIndexed``, as ``elements`` holds it;
    /// `.null` for other values.
    func element(at index: Int) -> TemplateValue {
        switch self {
        case .list(let items): items[index]
        case .multi(let values): .string(values[index])
        case .pathSegments(_, let segments): .string(segments[index])
        case .json(.array(let items)): TemplateValue(json: items[index])
        default: .null
        }
    }

    /// How many elements ``elements`` has, counted without making them.
    var elementCount: Int {
        switch self {
        case .list(let items): items.count
        case .multi(let values): values.count
        case .pathSegments(_, let segments): segments.count
        case .map(let map): map.count
        case .json(.array(let items)): items.count
        case .json(.object(let members)): members.count
        default: 0
        }
    }

    /// A JSON value as a template value: scalars become plain values, containers stay JSON.
    init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .integer(let value): self = .number(TemplateNumber(Double(value), scale: 0))
        case .double(let value):
            self = .number(TemplateNumber(literal: String(value)) ?? TemplateNumber(value, scale: 1))
        case .string(let text): self = .string(text)
        case .array, .object: self = .json(json)
        }
    }

    /// The value as a number, when it is one or is text that reads as one.
    var number: TemplateNumber? {
        switch self {
        case .number(let number): number
        case .string(let text): TemplateNumber(literal: TemplateValue.trimmingWhitespaces(text))
        case .multi(let values) where values.count == 1: TemplateNumber(literal: values[0])
        case .json(let json): json.numberValue.map { TemplateNumber($0, scale: 0) }
        default: nil
        }
    }

    /// `text` without the white space `CharacterSet.whitespaces` holds (tab and the space separators) at
    /// either end. Text that starts and ends with another ASCII character is returned as it is without
    /// Foundation's search: a variable `assign` set to `7` is read as a number in every iteration of a loop.
    static func trimmingWhitespaces(_ text: String) -> String {
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80, first != 0x20, first != 0x09,
            last != 0x20, last != 0x09
        {
            return text
        }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
