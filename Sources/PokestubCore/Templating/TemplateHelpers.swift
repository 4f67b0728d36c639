import Foundation

/// The helpers a response template may call: WireMock 2.35's own (`now`, `jsonPath`, `randomValue`, …) and
/// the Handlebars.java string and conditional helpers WireMock registers (`upper`, `eq`, …), with the
/// behaviour WireMock 2.35 shows for the same input (compared with its standalone jar; see
/// `scripts/wiremock-compat/`).
enum TemplateHelpers {
    /// Every helper name; a call to any other name is refused when the template is parsed.
    static let names: Set<String> = [
        "now", "date", "parseDate", "jsonPath", "randomValue", "randomInt", "pickRandom", "math", "size", "trim",
        "upper", "lower", "capitalize", "replace", "regexExtract", "base64", "urlEncode", "eq", "neq", "gt", "gte",
        "lt", "lte", "and", "or", "not", "contains", "matches", "lookup", "join", "capitalizeFirst",
        "defaultIfEmpty", "substring", "abbreviate", "stripTags",
    ]
    /// The Handlebars.java `StringHelpers` among ``names``. Given a falsy value (null, `""`, `false`, `0`, an
    /// empty list), each answers its first parameter's text, or nothing, instead of applying itself:
    /// `{{upper '' 'x'}}` is `x`, `{{substring request.query.missing 2}}` is `2` (Handlebars.java's
    /// `StringHelpers.apply`; checked against WireMock 2.35.1's jar). `defaultIfEmpty` is that rule alone.
    static let stringHelpers: Set<String> = [
        "upper", "lower", "capitalize", "capitalizeFirst", "replace", "defaultIfEmpty", "substring", "abbreviate",
        "stripTags",
    ]
    /// Names that may open a block besides the helpers above.
    static let blockNames: Set<String> = names.union(["if", "unless", "each", "with", "assign"])

    static func call(
        _ name: String, parameters: [TemplateValue], hash: [String: TemplateValue], renderer: inout TemplateRenderer
    ) throws(TemplateRenderError) -> TemplateValue {
        let first = parameters.first ?? .null
        func text(_ index: Int) -> String { index < parameters.count ? parameters[index].text : "" }
        if stringHelpers.contains(name), !first.isTruthy {
            return parameters.count > 1 ? .string(parameters[1].text) : .string("")
        }
        switch name {
        case "now", "date", "parseDate":
            return try dateHelper(name, parameters: parameters, hash: hash)
        case "jsonPath":
            return try jsonPath(first, text(1), default: hash["default"])
        case "randomValue":
            return .string(try randomValue(hash: hash, random: &renderer.random))
        case "randomInt":
            let lower = hash["lower"]?.number.map { Int($0.value) } ?? Int(Int32.min)
            let upper = hash["upper"]?.number.map { Int($0.value) } ?? Int(Int32.max)
            guard lower < upper else { throw TemplateRenderError("randomInt needs lower < upper") }
            return .number(TemplateNumber(Int.random(in: lower..<upper, using: &renderer.random)))
        case "pickRandom":
            let choices = parameters.count == 1 ? first.elements.map(\.value) : parameters
            return choices.randomElement(using: &renderer.random) ?? .null
        case "math":
            return try math(first, text(1), parameters.count > 2 ? parameters[2] : .null)
        case "size":
            switch first {
            case .string(let value): return .number(TemplateNumber(value.utf16.count))
            case .null: return .number(TemplateNumber(0))
            default: return .number(TemplateNumber(first.elements.count))
            }
        case "trim": return .string(first.text.trimmingCharacters(in: .whitespacesAndNewlines))
        case "upper": return .string(first.text.uppercased())
        case "lower": return .string(first.text.lowercased())
        case "capitalize":
            return .string(
                first.text.split(separator: " ", omittingEmptySubsequences: false).map {
                    $0.prefix(1).uppercased() + $0.dropFirst()
                }.joined(separator: " "))
        case "capitalizeFirst":
            // Java's StringUtils.capitalize: the first code point in title case (a single-scalar mapping only).
            var scalars = first.text.unicodeScalars
            let head = scalars.removeFirst()
            let title = head.properties.titlecaseMapping.unicodeScalars
            return .string((title.count == 1 ? String(title) : String(head)) + String(scalars))
        case "defaultIfEmpty": return first
        case "substring":
            // Java's String.substring: offsets in UTF-16 code units, from `start` to `end` (exclusive) or the end.
            let units = Array(first.text.utf16)
            let end = parameters.count > 2 ? Int(text(2)) : units.count
            guard let start = Int(text(1)), let end, 0 <= start, start <= end, end <= units.count else {
                throw TemplateRenderError(
                    "substring: offsets \(text(1)), \(parameters.count > 2 ? text(2) : "end") are outside "
                        + "0...\(units.count)")
            }
            return .string(String(decoding: units[start..<end], as: UTF16.self))
        case "abbreviate":
            // Commons Lang's StringUtils.abbreviate(text, width): cut to width - 3 UTF-16 units and "...".
            let units = Array(first.text.utf16)
            guard let width = Int(text(1)), width >= 4 else {
                throw TemplateRenderError("abbreviate: the width must be a whole number of 4 or more, not \(text(1))")
            }
            guard units.count > width else { return .string(first.text) }
            return .string(String(decoding: units[0..<(width - 3)], as: UTF16.self) + "...")
        case "stripTags":
            // Handlebars.java: every `<` up to the next `>` removed (across lines too); not marked safe, so
            // `{{…}}` still escapes what is left.
            return .string(first.text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression))
        case "replace": return .string(first.text.replacingOccurrences(of: text(1), with: text(2)))
        case "regexExtract":
            return try regexExtract(
                first.text, text(1), variable: parameters.count > 2 ? text(2) : nil, hash: hash,
                renderer: &renderer)
        case "base64":
            if hash["decode"]?.isTruthy == true {
                var encoded = first.text
                while encoded.count % 4 != 0 { encoded += "=" }
                return .string(Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) } ?? "")
            }
            var encoded = Data(first.text.utf8).base64EncodedString()
            if hash["padding"].map({ $0.text == "false" }) == true { encoded = String(encoded.prefix { $0 != "=" }) }
            return .string(encoded)
        case "urlEncode":
            return .string(hash["decode"]?.isTruthy == true ? formDecode(first.text) : formEncode(first.text))
        case "eq", "neq":
            let equal = parameters.count >= 2 && equals(parameters[0], parameters[1])
            return .bool(name == "eq" ? equal : !equal)
        case "gt", "gte", "lt", "lte":
            guard parameters.count >= 2, let order = compare(parameters[0], parameters[1]) else { return .bool(false) }
            switch name {
            case "gt": return .bool(order > 0)
            case "gte": return .bool(order >= 0)
            case "lt": return .bool(order < 0)
            default: return .bool(order <= 0)
            }
        case "and": return .bool(!parameters.isEmpty && parameters.allSatisfy(\.isTruthy))
        case "or": return .bool(parameters.contains(where: \.isTruthy))
        case "not": return .bool(!first.isTruthy)
        case "contains":
            let needle = text(1)
            switch first {
            case .list, .multi, .json(.array): return .bool(first.elements.contains { $0.value.text == needle })
            default: return .bool(first.text.contains(needle))
            }
        case "matches":
            guard let regex = try? StubRegex(text(1)) else {
                throw TemplateRenderError("not a regular expression: \(text(1).debugDescription)")
            }
            return .bool(regex.matches(first.text))
        case "lookup":
            return first.member(text(1)) ?? .null
        case "join":
            let separator = parameters.count > 1 ? parameters.last!.text : ","
            let items = parameters.count > 2 ? Array(parameters.dropLast()) : first.elements.map(\.value)
            return .string(items.map(\.text).joined(separator: separator))
        default:
            throw TemplateRenderError("unsupported helper \(name.debugDescription)")
        }
    }

    // MARK: Dates

    private static func dateHelper(
        _ name: String, parameters: [TemplateValue], hash: [String: TemplateValue]
    )
        throws(TemplateRenderError) -> TemplateValue
    {
        let timeZone: TimeZone
        if let zoneName = hash["timezone"]?.text {
            guard let zone = TimeZone(identifier: zoneName) else {
                throw TemplateRenderError("unknown timezone \(zoneName.debugDescription)")
            }
            timeZone = zone
        } else {
            timeZone = TemplateDate.utc
        }
        let format = hash["format"]?.text
        if let format, format != "epoch", format != "unix", let letter = JavaDateFormat(format).unsupportedLetter {
            throw TemplateRenderError("unsupported date format letter \(String(letter).debugDescription)")
        }
        var date: Date
        switch name {
        case "now":
            date = Date()
        case "parseDate":
            let text = parameters.first?.text ?? ""
            switch format {
            case "epoch"?: date = Double(text).map { Date(timeIntervalSince1970: $0 / 1000) } ?? Date()
            case "unix"?: date = Double(text).map { Date(timeIntervalSince1970: $0) } ?? Date()
            case let pattern?:
                guard let parsed = JavaDateFormat(pattern).date(from: text, in: timeZone) else {
                    throw TemplateRenderError("\(text.debugDescription) does not match the format \(pattern)")
                }
                date = parsed
            case nil:
                guard let parsed = JavaDateFormat.parseDefault(text) else {
                    throw TemplateRenderError("cannot read \(text.debugDescription) as a date")
                }
                date = parsed
            }
            return .date(TemplateDate(date: date, format: nil, timeZone: nil))
        default:
            switch parameters.first {
            case .date(let value)?: date = value.date
            case let other?:
                guard let parsed = JavaDateFormat.parseDefault(other.text) else {
                    throw TemplateRenderError("cannot read \(other.text.debugDescription) as a date")
                }
                date = parsed
            case nil: throw TemplateRenderError("date needs a date")
            }
        }
        if let offset = hash["offset"]?.text {
            guard let moved = TemplateDate.offset(date, by: offset, in: timeZone) else {
                throw TemplateRenderError(
                    "offset \(offset.debugDescription) is not '<amount> <seconds|minutes|hours|days|months|years>'")
            }
            date = moved
        }
        // WireMock 2.35's `date` helper ignores `timezone`: only `now` formats in another zone.
        let zone = name == "now" && hash["timezone"] != nil ? timeZone : nil
        return .date(TemplateDate(date: date, format: format, timeZone: zone))
    }

    // MARK: JSON

    private static func jsonPath(
        _ source: TemplateValue, _ expression: String, default fallback: TemplateValue?
    )
        throws(TemplateRenderError) -> TemplateValue
    {
        let path: JSONPath
        do { path = try JSONPath(expression) } catch {
            throw TemplateRenderError("unsupported JSONPath \(expression.debugDescription): \(error.message)")
        }
        let document: JSONValue
        switch source {
        case .json(let json): document = json
        default:
            guard let parsed = try? JSONValue.parse(source.text) else { return fallback ?? .null }
            document = parsed
        }
        let selected = path.evaluate(on: document)
        guard let first = selected.first else { return fallback ?? .null }
        if selected.count > 1 || !path.isDefinite { return .json(.array(selected)) }
        return TemplateValue(json: first)
    }

    // MARK: Random values

    /// WireMock 2.35 lower-cases every type's value unless `uppercase=true` (its `randomValue` helper).
    private static func randomValue(
        hash: [String: TemplateValue], random: inout SystemRandomNumberGenerator
    )
        throws(TemplateRenderError) -> String
    {
        let length = hash["length"]?.number.map { Int($0.value) } ?? 36
        let type = hash["type"]?.text ?? "ALPHANUMERIC"
        let alphabet: String
        switch type {
        case "ALPHANUMERIC": alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        case "ALPHABETIC": alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        case "NUMERIC": alphabet = "0123456789"
        case "HEXADECIMAL": alphabet = "ABCDEF0123456789"
        case "ALPHANUMERIC_AND_SYMBOLS":
            alphabet = String((33...126).map { Character(UnicodeScalar(UInt8($0))) })
        case "UUID":
            let value = UUID().uuidString
            return hash["uppercase"]?.isTruthy == true ? value : value.lowercased()
        default:
            throw TemplateRenderError(
                "unsupported randomValue type \(type.debugDescription) (ALPHANUMERIC, ALPHABETIC, NUMERIC, "
                    + "HEXADECIMAL, ALPHANUMERIC_AND_SYMBOLS, UUID)")
        }
        let characters = Array(alphabet)
        let value = String((0..<max(0, length)).map { _ in characters.randomElement(using: &random)! })
        return hash["uppercase"]?.isTruthy == true ? value.uppercased() : value.lowercased()
    }

    // MARK: Numbers and comparisons

    /// WireMock's `math`: `+ - * / %` on decimals, results keeping Java `BigDecimal` scales.
    private static func math(
        _ left: TemplateValue, _ operation: String, _ right: TemplateValue
    )
        throws(TemplateRenderError) -> TemplateValue
    {
        guard let lhs = left.number, let rhs = right.number else {
            throw TemplateRenderError("math needs two numbers")
        }
        switch operation {
        case "+": return .number(TemplateNumber(lhs.value + rhs.value, scale: max(lhs.scale, rhs.scale)))
        case "-": return .number(TemplateNumber(lhs.value - rhs.value, scale: max(lhs.scale, rhs.scale)))
        case "*": return .number(TemplateNumber(lhs.value * rhs.value, scale: lhs.scale + rhs.scale))
        case "/":
            guard rhs.value != 0 else { throw TemplateRenderError("division by zero") }
            let factor = pow(10, Double(lhs.scale))
            let quotient = lhs.value / rhs.value * factor
            let rounded = (quotient < 0 ? -1 : 1) * (abs(quotient) + 0.5).rounded(.down)
            return .number(TemplateNumber(rounded / factor, scale: lhs.scale))
        case "%":
            guard rhs.value != 0 else { throw TemplateRenderError("division by zero") }
            return .number(
                TemplateNumber(lhs.value.truncatingRemainder(dividingBy: rhs.value), scale: max(lhs.scale, rhs.scale)))
        default:
            throw TemplateRenderError("unsupported math operator \(operation.debugDescription) (+ - * / %)")
        }
    }

    /// Handlebars.java's `eq`: numbers compare by value, other values only with the same kind (a query
    /// parameter's values are a list, so `eq request.query.a 'x'` is false, as in WireMock 2.35).
    static func equals(_ lhs: TemplateValue, _ rhs: TemplateValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a.value == b.value
        case (.string(let a), .string(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.multi(let a), .multi(let b)): return a == b
        case (.list, .list), (.json, .json), (.date, .date), (.map, .map): return lhs.text == rhs.text
        default: return false
        }
    }

    /// Ordering for `gt`/`lt`: numbers by value, strings by UTF-16 code units (Java's `compareTo`).
    static func compare(_ lhs: TemplateValue, _ rhs: TemplateValue) -> Int? {
        if case .number(let a) = lhs, case .number(let b) = rhs {
            return a.value < b.value ? -1 : a.value > b.value ? 1 : 0
        }
        if case .string(let a) = lhs, case .string(let b) = rhs {
            return a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : a == b ? 0 : 1
        }
        return nil
    }

    // MARK: Text

    private static func regexExtract(
        _ input: String, _ pattern: String, variable: String?, hash: [String: TemplateValue],
        renderer: inout TemplateRenderer
    ) throws(TemplateRenderError) -> TemplateValue {
        let regex: NSRegularExpression
        do { regex = try NSRegularExpression(pattern: pattern) } catch {
            throw TemplateRenderError("not a regular expression: \(pattern.debugDescription)")
        }
        let range = NSRange(input.startIndex..., in: input)
        guard let match = regex.firstMatch(in: input, range: range) else {
            return hash["default"] ?? .string("[ERROR: Nothing matched \(pattern)]")
        }
        func group(_ index: Int) -> String {
            Range(match.range(at: index), in: input).map { String(input[$0]) } ?? ""
        }
        guard let variable else { return .string(group(0)) }
        guard match.numberOfRanges > 1 else { return .string("[ERROR: Nothing matched \(pattern)]") }
        renderer.variables[variable] = .list((1..<match.numberOfRanges).map { .string(group($0)) })
        return .string("")
    }

    /// Java's `URLEncoder.encode(text, UTF-8)`: letters, digits and `.-*_` stay, space becomes `+`.
    static func formEncode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"),
                UInt8(ascii: "_"):
                output.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: " "): output += "+"
            default: output += String(format: "%%%02X", byte)
            }
        }
        return output
    }

    static func formDecode(_ text: String) -> String {
        PercentDecoding.decode(Substring(text), plusAsSpace: true)
    }
}
