import Foundation

/// The helpers a response template may call: WireMock 2.35's own (`now`, `jsonPath`, `randomValue`, …) and
/// the Handlebars.java string and conditional helpers WireMock registers (`upper`, `eq`, …), with the
/// behaviour WireMock 2.35 shows for the same input (compared with its standalone jar; see
/// `scripts/wiremock-compat/`).
enum TemplateHelpers {
    /// WireMock 2.35's `range`: the whole numbers from the first parameter to the second, both included
    /// (`{{#each (range 3 5)}}` walks 3, 4, 5; RangeHelper in the 2.35.1 jar). Each bound must be a number (a
    /// literal or a helper's result, cut to a whole number as Java's `intValue` does); text, even `'3'`, gives
    /// WireMock's error text instead of a list. An upper bound more than one below the lower is an error (500,
    /// as WireMock's `IllegalArgumentException`); one below gives an empty list. Each number takes a step of
    /// the budget before the list is made.
    private static func range(
        _ parameters: [TemplateValue], renderer: inout TemplateRenderer
    ) throws(TemplateRenderError) -> TemplateValue {
        guard parameters.count >= 2, case .number(let lower) = parameters[0], case .number(let upper) = parameters[1]
        else {
            return .string("[ERROR: The range helper requires both lower and upper bounds as integer parameters]")
        }
        let (from, to) = (Int32(clamping: lower.clampedInteger), Int32(clamping: upper.clampedInteger))
        let count = Int(to) - Int(from) + 1
        guard count >= 0 else {
            throw TemplateRenderError("range from \(from) to \(to): the upper bound is below the lower")
        }
        try renderer.budget.step(count)
        return .list((Int(from)..<Int(from) + count).map { .number(TemplateNumber($0)) })
    }

    /// Calls `helper`, drawing what it reads and makes from `renderer`'s budget: text it reads takes its
    /// bytes' steps, and a result whose size is known first is checked before it is made.
    static func call(
        _ helper: TemplateHelper, parameters: [TemplateValue], hash: [String: TemplateValue],
        renderer: inout TemplateRenderer
    ) throws(TemplateRenderError) -> TemplateValue {
        let first = parameters.first ?? .null
        func text(_ index: Int) throws(TemplateRenderError) -> String {
            index < parameters.count ? try renderer.text(of: parameters[index]) : ""
        }
        /// `result`, once its size is checked: for helpers whose result is at most three times what they read.
        func made(_ result: String) throws(TemplateRenderError) -> TemplateValue {
            try renderer.budget.make(bytes: result.utf8.count)
            return .string(result)
        }
        if helper.isStringHelper, !first.isTruthy {
            return parameters.count > 1 ? .string(try text(1)) : .string("")
        }
        switch helper {
        case .now, .date, .parseDate:
            return try dateHelper(helper, parameters: parameters, hash: hash, renderer: &renderer)
        case .jsonPath:
            return try jsonPath(first, try text(1), default: hash["default"], renderer: &renderer)
        case .randomValue:
            return .string(try randomValue(hash: hash, renderer: &renderer))
        case .randomInt:
            let lower = hash["lower"]?.number.map(\.clampedInteger) ?? Int(Int32.min)
            let upper = hash["upper"]?.number.map(\.clampedInteger) ?? Int(Int32.max)
            guard lower < upper else { throw TemplateRenderError("randomInt needs lower < upper") }
            return .number(TemplateNumber(Int.random(in: lower..<upper, using: &renderer.random)))
        case .pickRandom:
            let choices = parameters.count == 1 ? first.elements.map(\.value) : parameters
            try renderer.budget.step(choices.count)
            return choices.randomElement(using: &renderer.random) ?? .null
        case .math:
            return try math(first, try text(1), parameters.count > 2 ? parameters[2] : .null)
        case .range:
            return try range(parameters, renderer: &renderer)
        case .array:
            try renderer.budget.step(parameters.count)
            return .list(parameters)
        case .size:
            switch first {
            case .string(let value):
                try renderer.budget.process(bytes: value.utf8.count)
                return .number(TemplateNumber(value.utf16.count))
            case .null: return .number(TemplateNumber(0))
            default: return .number(TemplateNumber(first.elementCount))
            }
        case .trim: return try made(try text(0).trimmingCharacters(in: .whitespacesAndNewlines))
        case .upper: return try made(try text(0).uppercased())
        case .lower: return try made(try text(0).lowercased())
        case .capitalize:
            return try made(
                try text(0).split(separator: " ", omittingEmptySubsequences: false).map {
                    $0.prefix(1).uppercased() + $0.dropFirst()
                }.joined(separator: " "))
        case .capitalizeFirst:
            // Java's StringUtils.capitalize: the first code point in title case (a single-scalar mapping only).
            var scalars = try text(0).unicodeScalars
            guard let head = scalars.first else { return .string("") }
            scalars.removeFirst()
            let title = head.properties.titlecaseMapping.unicodeScalars
            return try made((title.count == 1 ? String(title) : String(head)) + String(scalars))
        case .defaultIfEmpty: return first
        case .substring:
            // Java's String.substring: offsets in UTF-16 code units, from `start` to `end` (exclusive) or the end.
            let units = Array(try text(0).utf16)
            let end = parameters.count > 2 ? Int(try text(2)) : units.count
            guard let start = Int(try text(1)), let end, 0 <= start, start <= end, end <= units.count else {
                throw TemplateRenderError(
                    "substring: offsets \(try text(1)), \(parameters.count > 2 ? try text(2) : "end") are outside "
                        + "0...\(units.count)")
            }
            return .string(String(decoding: units[start..<end], as: UTF16.self))
        case .abbreviate:
            // Commons Lang's StringUtils.abbreviate(text, width): cut to width - 3 UTF-16 units and "...".
            let whole = try text(0)
            let units = Array(whole.utf16)
            guard let width = Int(try text(1)), width >= 4 else {
                throw TemplateRenderError(
                    "abbreviate: the width must be a whole number of 4 or more, not \(try text(1))")
            }
            guard units.count > width else { return .string(whole) }
            return .string(String(decoding: units[0..<(width - 3)], as: UTF16.self) + "...")
        case .stripTags:
            // Handlebars.java: every `<` up to the next `>` removed (across lines too); not marked safe, so
            // `{{…}}` still escapes what is left.
            return .string(stripTags(try text(0)))
        case .replace:
            return .string(try replace(try text(1), with: try text(2), in: try text(0), renderer: &renderer))
        case .regexExtract:
            return try regexExtract(
                try text(0), try text(1), variable: parameters.count > 2 ? try text(2) : nil, hash: hash,
                renderer: &renderer)
        case .base64:
            if hash["decode"]?.isTruthy == true {
                var encoded = try text(0)
                while encoded.utf8.count % 4 != 0 { encoded += "=" }
                return .string(Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) } ?? "")
            }
            let plain = try text(0)
            try renderer.budget.make(bytes: (plain.utf8.count + 2) / 3 * 4)
            var encoded = Data(plain.utf8).base64EncodedString()
            if hash["padding"].map({ $0.text == "false" }) == true { encoded = String(encoded.prefix { $0 != "=" }) }
            return .string(encoded)
        case .urlEncode:
            if hash["decode"]?.isTruthy == true { return .string(formDecode(try text(0))) }
            return .string(try formEncode(try text(0), budget: &renderer.budget))
        case .eq, .neq:
            var equal = false
            if parameters.count >= 2 { equal = try equals(parameters[0], parameters[1], renderer: &renderer) }
            return .bool(helper == .eq ? equal : !equal)
        case .gt, .gte, .lt, .lte:
            guard parameters.count >= 2 else { return .bool(false) }
            for parameter in parameters.prefix(2) {
                if case .string(let value) = parameter { try renderer.budget.process(bytes: value.utf8.count) }
            }
            guard let order = compare(parameters[0], parameters[1]) else { return .bool(false) }
            switch helper {
            case .gt: return .bool(order > 0)
            case .gte: return .bool(order >= 0)
            case .lt: return .bool(order < 0)
            default: return .bool(order <= 0)
            }
        case .and: return .bool(!parameters.isEmpty && parameters.allSatisfy(\.isTruthy))
        case .or: return .bool(parameters.contains(where: \.isTruthy))
        case .not: return .bool(!first.isTruthy)
        case .contains:
            let needle = try text(1)
            switch first {
            case .list, .multi, .json(.array):
                for element in first.elements {
                    try renderer.budget.step()
                    if try renderer.text(of: element.value) == needle { return .bool(true) }
                }
                return .bool(false)
            default: return .bool(try contains(needle, in: try text(0), budget: &renderer.budget))
            }
        case .matches:
            let pattern = try text(1)
            guard let regex = try? StubRegex(pattern) else {
                throw TemplateRenderError("not a regular expression: \(pattern.debugDescription)")
            }
            let value = try text(0)
            let allowed = min(Int.max / 2, renderer.budget.remainingSteps) * TemplateBudget.regexStepsPerStep
            let (outcome, spent) = MatchBudget.measuring(steps: allowed) { regex.evaluate(value) }
            try renderer.budget.step((allowed - spent.remaining) / TemplateBudget.regexStepsPerStep)
            if spent.isSpent { try renderer.budget.step(renderer.budget.remainingSteps + 1) }
            return .bool(outcome.matched)
        case .lookup:
            if renderer.usesFastPaths, parameters.count > 1, first.isIndexed,
                let index = try position(parameters[1], renderer: &renderer)
            {
                return index >= 0 && index < first.elementCount ? first.element(at: index) : .null
            }
            return first.member(try text(1)) ?? .null
        case .join:
            let separator = parameters.count > 1 ? try renderer.text(of: parameters.last!) : ","
            let items = parameters.count > 2 ? Array(parameters.dropLast()) : first.elements.map(\.value)
            var joined = ""
            for (position, item) in items.enumerated() {
                try renderer.budget.step()
                let piece = try renderer.text(of: item)
                let added = (position > 0 ? separator.utf8.count : 0) + piece.utf8.count
                try renderer.budget.allow(bytes: joined.utf8.count + added)
                if position > 0 { joined += separator }
                joined += piece
            }
            return .string(joined)
        }
    }

    /// For `lookup` on a list, the position a whole number names, read without making its text and reading
    /// that back: `nil` for any other value. The text's bytes are checked and charged as
    /// ``TemplateRenderer/text(of:)`` does (the text ``TemplateNumber/text`` prints, `String(whole)`, whose
    /// `Int(_:)` is the position).
    private static func position(
        _ value: TemplateValue, renderer: inout TemplateRenderer
    ) throws(TemplateRenderError) -> Int? {
        guard case .number(let number) = value, number.scale == 0, let whole = Int(exactly: number.value.rounded())
        else { return nil }
        var digits = whole < 0 ? 2 : 1
        var rest = whole.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        try renderer.budget.allow(bytes: digits)
        try renderer.budget.process(bytes: digits)
        return whole
    }

    // MARK: Dates

    private static func dateHelper(
        _ helper: TemplateHelper, parameters: [TemplateValue], hash: [String: TemplateValue],
        renderer: inout TemplateRenderer
    )
        throws(TemplateRenderError) -> TemplateValue
    {
        let timeZone: TimeZone
        if let zoneName = try hash["timezone"].map({ (value) throws(TemplateRenderError) in
            try renderer.text(of: value)
        }) {
            guard let zone = TimeZone(identifier: zoneName) else {
                throw TemplateRenderError("unknown timezone \(zoneName.debugDescription)")
            }
            timeZone = zone
        } else {
            timeZone = TemplateDate.utc
        }
        let format = try hash["format"].map { (value) throws(TemplateRenderError) in try renderer.text(of: value) }
        if let format, format != "epoch", format != "unix" {
            let pattern = JavaDateFormat(format)
            if let letter = pattern.unsupportedLetter {
                throw TemplateRenderError("unsupported date format letter \(String(letter).debugDescription)")
            }
            // The date is printed later, perhaps many times: its largest text is checked now.
            try renderer.budget.allow(bytes: pattern.longestText)
        }
        var date: Date
        switch helper {
        case .now:
            date = Date()
        case .parseDate:
            let text =
                try parameters.first.map { (value) throws(TemplateRenderError) in try renderer.text(of: value) }
                ?? ""
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
                let text = try renderer.text(of: other)
                guard let parsed = JavaDateFormat.parseDefault(text) else {
                    throw TemplateRenderError("cannot read \(text.debugDescription) as a date")
                }
                date = parsed
            case nil: throw TemplateRenderError("date needs a date")
            }
        }
        if let offset = try hash["offset"].map({ (value) throws(TemplateRenderError) in try renderer.text(of: value) })
        {
            guard let moved = TemplateDate.offset(date, by: offset, in: timeZone) else {
                throw TemplateRenderError(
                    "offset \(offset.debugDescription) is not '<amount> <seconds|minutes|hours|days|months|years>'")
            }
            date = moved
        }
        // WireMock 2.35's `date` helper ignores `timezone`: only `now` formats in another zone.
        let zone = helper == .now && hash["timezone"] != nil ? timeZone : nil
        return .date(TemplateDate(date: date, format: format, timeZone: zone))
    }

    // MARK: JSON

    /// WireMock's `jsonPath`. Parsing text takes ``jsonParseStepsPerByteStep`` times its bytes' steps (text
    /// parsed just before is not parsed again); a path
    /// that is not definite (`..`, `*`, filters) walks a whole document, so over a document not parsed here it
    /// takes a step per node; and each value selected takes one.
    private static func jsonPath(
        _ source: TemplateValue, _ expression: String, default fallback: TemplateValue?,
        renderer: inout TemplateRenderer
    )
        throws(TemplateRenderError) -> TemplateValue
    {
        let path: JSONPath
        do { path = try JSONPath(expression) } catch {
            throw TemplateRenderError("unsupported JSONPath \(expression.debugDescription): \(error.message)")
        }
        let selected: [JSONValue]
        switch source {
        case .json(let json):
            if !path.isDefinite {
                try renderer.budget.step(nodeCount(json, upTo: renderer.budget.remainingSteps + 1))
            }
            selected = path.evaluate(on: json)
            try renderer.budget.step(selected.count)
        default:
            // Text (the request body) is read in place as a ``JSONDocument``; only what the path selects
            // becomes a ``JSONValue``.
            let text = try renderer.text(of: source)
            let parsed: JSONDocument?
            if let last = renderer.lastParsedJSON, last.text == text {
                parsed = last.document
            } else {
                try renderer.budget.process(bytes: text.utf8.count * jsonParseStepsPerByteStep)
                renderer.lastParsedJSON = nil
                parsed = try? JSONDocument.parse(text)
                renderer.lastParsedJSON = (text, parsed)
            }
            guard let parsed else { return fallback ?? .null }
            let nodes = path.select(in: parsed.root)
            try renderer.budget.step(nodes.count)
            selected = nodes.map { $0.materialized() }
        }
        guard let first = selected.first else { return fallback ?? .null }
        if selected.count > 1 || !path.isDefinite { return .json(.array(selected)) }
        return TemplateValue(json: first)
    }

    /// How many times more a byte of JSON text costs to parse than to copy: parsing took about 120 ns a
    /// byte in a release build here, so a step is 4 bytes parsed.
    static let jsonParseStepsPerByteStep = 64

    /// The nodes in `value`, counting no further than `limit`.
    static func nodeCount(_ value: JSONValue, upTo limit: Int) -> Int {
        var count = 0
        var pending = [value]
        while let next = pending.popLast(), count < limit {
            count += 1
            switch next {
            case .array(let items): pending += items
            case .object(let members): pending += members.values
            default: break
            }
        }
        return count
    }

    // MARK: Random values

    /// WireMock 2.35 lower-cases every type's value unless `uppercase=true` (its `randomValue` helper). The
    /// length is checked against the budget before the value is made.
    private static func randomValue(
        hash: [String: TemplateValue], renderer: inout TemplateRenderer
    )
        throws(TemplateRenderError) -> String
    {
        let length = max(0, hash["length"]?.number.map(\.clampedInteger) ?? 36)
        let type =
            try hash["type"].map { (value) throws(TemplateRenderError) in try renderer.text(of: value) }
            ?? "ALPHANUMERIC"
        let uppercase = hash["uppercase"]?.isTruthy == true
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
            return uppercase ? value : value.lowercased()
        default:
            throw TemplateRenderError(
                "unsupported randomValue type \(type.debugDescription) (ALPHANUMERIC, ALPHABETIC, NUMERIC, "
                    + "HEXADECIMAL, ALPHANUMERIC_AND_SYMBOLS, UUID)")
        }
        try renderer.budget.make(bytes: length)
        // Case is mapped in the alphabet, duplicates kept, so each character is as likely as when the value
        // was drawn from the mixed-case alphabet and mapped afterwards.
        let characters = Array((uppercase ? alphabet.uppercased() : alphabet.lowercased()).utf8)
        // Eight random bytes per draw, from SplitMix64 seeded by the system generator (a system draw is a
        // system call; WireMock's values come from Java's `Random`, not a secure source either). A byte at or
        // past the largest multiple of the alphabet's size is dropped, so every character stays equally
        // likely.
        let accepted = 256 - 256 % characters.count
        var state = renderer.random.next()
        var bytes = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            state &+= 0x9E37_79B9_7F4A_7C15
            var draw = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            draw = (draw ^ (draw >> 27)) &* 0x94D0_49BB_1331_11EB
            draw ^= draw >> 31
            for _ in 0..<8 where filled < length {
                let byte = Int(draw & 0xFF)
                draw >>= 8
                guard byte < accepted else { continue }
                bytes[filled] = characters[byte % characters.count]
                filled += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Numbers and comparisons

    /// The most decimal places `math` gives a product of numbers with fewer.
    static let maxProductScale = 1_000

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
        case "*":
            // Scales add up, so repeated products could print ever longer: past its operands' scales and
            // maxProductScale, a product is refused.
            let scale = lhs.scale + rhs.scale
            guard scale <= max(maxProductScale, lhs.scale, rhs.scale) else {
                throw TemplateRenderError("a product with \(scale) decimal places (at most \(maxProductScale))")
            }
            return .number(TemplateNumber(lhs.value * rhs.value, scale: scale))
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
    static func equals(
        _ lhs: TemplateValue, _ rhs: TemplateValue, renderer: inout TemplateRenderer
    ) throws(TemplateRenderError) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a.value == b.value
        case (.string(let a), .string(let b)):
            try renderer.budget.process(bytes: min(a.utf8.count, b.utf8.count))
            return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        case (.multi(let a), .multi(let b)):
            try renderer.budget.step(min(a.count, b.count))
            return a == b
        case (.list, .list), (.json, .json), (.date, .date), (.map, .map):
            return try renderer.text(of: lhs) == renderer.text(of: rhs)
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

    /// WireMock's `regexExtract`: the first match, or its groups into a variable. The regular expression
    /// engine's steps are drawn from the budget as it runs, and it is stopped when the budget is spent.
    private static func regexExtract(
        _ input: String, _ pattern: String, variable: String?, hash: [String: TemplateValue],
        renderer: inout TemplateRenderer
    ) throws(TemplateRenderError) -> TemplateValue {
        let regex: NSRegularExpression
        do { regex = try TemplateRegexCache.regex(pattern) } catch {
            throw TemplateRenderError("not a regular expression: \(pattern.debugDescription)")
        }
        let range = NSRange(input.startIndex..., in: input)
        // With `.reportProgress` ICU calls back about every 10,000 engine steps without a result.
        let allowedCallbacks =
            min(Int.max / 2, renderer.budget.remainingSteps) / (10_000 / TemplateBudget.regexStepsPerStep)
        var callbacks = 0
        var found: NSTextCheckingResult?
        regex.enumerateMatches(in: input, options: [.reportProgress], range: range) { result, _, stop in
            if let result {
                found = result
                stop.pointee = true
            } else {
                callbacks += 1
                if callbacks > allowedCallbacks { stop.pointee = true }
            }
        }
        try renderer.budget.step(1 + callbacks * (10_000 / TemplateBudget.regexStepsPerStep))
        guard let match = found else {
            return hash["default"] ?? .string("[ERROR: Nothing matched \(pattern)]")
        }
        func group(_ index: Int) -> String {
            Range(match.range(at: index), in: input).map { String(input[$0]) } ?? ""
        }
        guard let variable else { return .string(group(0)) }
        guard match.numberOfRanges > 1 else { return .string("[ERROR: Nothing matched \(pattern)]") }
        // Each group is a copy, and groups may each hold the whole input (`(?=.(.*))(?=.(\1))…`): what they
        // make together is checked and charged before they are made.
        var bytes = 0
        for index in 1..<match.numberOfRanges {
            bytes += Range(match.range(at: index), in: input).map { input[$0].utf8.count } ?? 0
            try renderer.budget.allow(bytes: bytes)
        }
        try renderer.budget.process(bytes: bytes)
        renderer.variables.set(variable, .list((1..<match.numberOfRanges).map { .string(group($0)) }))
        return .string("")
    }
}
