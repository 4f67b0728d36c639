/// One helper a response template may call, bound when the template is parsed: a call site holds its case,
/// so rendering dispatches on it without looking the name up (``TemplateHelpers/call(_:parameters:hash:renderer:)``).
///
/// The raw value is the name as written in a template. The helpers are WireMock 2.35's own (`now`,
/// `jsonPath`, `randomValue`, …) and the Handlebars.java string and conditional helpers WireMock registers
/// (`upper`, `eq`, …); a call naming any other helper is refused when the template is parsed.
enum TemplateHelper: String, CaseIterable, Sendable {
    case now, date, parseDate, jsonPath, randomValue, randomInt, pickRandom, math, size, trim, upper, lower
    case capitalize, replace, regexExtract, base64, urlEncode, eq, neq, gt, gte, lt, lte, and, or, not
    case contains, matches, lookup, join, capitalizeFirst, defaultIfEmpty, substring, abbreviate, stripTags
    case range, array

    /// Whether this is one of the Handlebars.java `StringHelpers`. Given a falsy value (null, `""`, `false`,
    /// `0`, an empty list), each answers its first parameter's text, or nothing, instead of applying itself:
    /// `{{upper '' 'x'}}` is `x`, `{{substring request.query.missing 2}}` is `2` (Handlebars.java's
    /// `StringHelpers.apply`; checked against WireMock 2.35.1's jar). `defaultIfEmpty` is that rule alone.
    var isStringHelper: Bool {
        switch self {
        case .upper, .lower, .capitalize, .capitalizeFirst, .replace, .defaultIfEmpty, .substring, .abbreviate,
            .stripTags:
            true
        default: false
        }
    }
}
