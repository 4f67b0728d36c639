import Foundation

/// A date from `now`, `date` or `parseDate`, printed as WireMock's `RenderableDate` prints it: with its
/// `format` (a Java `SimpleDateFormat` pattern, or `epoch` for milliseconds and `unix` for seconds since
/// 1970), else ISO 8601 to the second (`2026-12-02T01:16:26Z`, or `+11:00` in another time zone).
struct TemplateDate: Sendable {
    var date: Date
    var format: String?
    var timeZone: TimeZone?

    var text: String {
        switch format {
        case "epoch": return TemplateDate.wholeText(date.timeIntervalSince1970 * 1000)
        case "unix": return TemplateDate.wholeText(date.timeIntervalSince1970)
        case let pattern?: return JavaDateFormat(pattern).string(from: date, in: timeZone ?? TemplateDate.utc)
        case nil:
            guard let timeZone, timeZone.secondsFromGMT(for: date) != 0 else {
                return JavaDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'").string(from: date, in: TemplateDate.utc)
            }
            return JavaDateFormat("yyyy-MM-dd'T'HH:mm:ssXXX").string(from: date, in: timeZone)
        }
    }

    static let utc = TimeZone(identifier: "UTC")!

    /// `value` rounded down and printed as a whole number, held to `Int64`'s range (NaN prints as 0): a date
    /// parsed from `epoch` or `unix` text may be far outside it.
    private static func wholeText(_ value: Double) -> String {
        String(TemplateNumber(value.rounded(.down), scale: 0).clampedInteger)
    }

    /// Applies WireMock's `offset`: `'3 days'`, `'-2 hours'`, `'1 years'` (units: seconds, minutes, hours,
    /// days, months, years, singular or plural). `nil` when the text is not an offset.
    static func offset(_ date: Date, by text: String, in timeZone: TimeZone) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let amount = Int(parts[0]) else { return nil }
        var unit = parts[1].lowercased()
        if unit.hasSuffix("s") { unit.removeLast() }
        let component: Calendar.Component
        switch unit {
        case "second": component = .second
        case "minute": component = .minute
        case "hour": component = .hour
        case "day": component = .day
        case "month": component = .month
        case "year": component = .year
        default: return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(byAdding: component, value: amount, to: date)
    }
}
