import Foundation

/// A Java `SimpleDateFormat` pattern, which WireMock's date helpers take as `format`
/// (https://docs.oracle.com/javase/8/docs/api/java/text/SimpleDateFormat.html), in the English locale.
///
/// Formatting supports the letters G y Y M L d D E u a H k K h m s S z Z X and quoted text (`'T'`, `''` for a
/// quote); the count of a letter picks the width or form as in Java (`MMM` is `Nov`, `MMMM` `November`,
/// `yy` the last two digits, `XXX` `+11:00`). Other letters are refused when the template is parsed.
struct JavaDateFormat: Sendable {
    private enum Part: Sendable {
        case literal(String)
        case field(Character, count: Int)
    }

    private let parts: [Part]
    /// The pattern as written.
    let pattern: String

    static let letters: Set<Character> = Set("GyYMLdDEuaHkKhmsSzZX")

    init(_ pattern: String) {
        self.pattern = pattern
        var parts: [Part] = []
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                if index + 1 < characters.count, characters[index + 1] == "'" {
                    parts.append(.literal("'"))
                    index += 2
                    continue
                }
                var text = ""
                index += 1
                while index < characters.count {
                    if characters[index] == "'" {
                        if index + 1 < characters.count, characters[index + 1] == "'" {
                            text.append("'")
                            index += 2
                            continue
                        }
                        break
                    }
                    text.append(characters[index])
                    index += 1
                }
                index += 1
                parts.append(.literal(text))
            } else if character.isASCII, character.isLetter {
                var count = 1
                while index + count < characters.count, characters[index + count] == character { count += 1 }
                parts.append(.field(character, count: count))
                index += count
            } else {
                parts.append(.literal(String(character)))
                index += 1
            }
        }
        self.parts = parts
    }

    /// The first pattern letter Java has that this formatter does not, if any.
    var unsupportedLetter: Character? {
        for case .field(let letter, _) in parts where !JavaDateFormat.letters.contains(letter) { return letter }
        return nil
    }

    /// The most bytes ``string(from:in:)`` can make: each literal's bytes, and for each field its letter count
    /// or 64 bytes (the longest number or name a field prints), whichever is more.
    var longestText: Int {
        parts.reduce(0) { total, part in
            switch part {
            case .literal(let text): total + text.utf8.count
            case .field(_, let count): total + max(count, 64)
            }
        }
    }

    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The date in `timeZone`, formatted.
    func string(from date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let fields = calendar.dateComponents(
            [.era, .year, .month, .day, .hour, .minute, .second, .nanosecond, .weekday, .yearForWeekOfYear],
            from: date)
        let offsetSeconds = timeZone.secondsFromGMT(for: date)
        var output = ""
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        for part in parts {
            switch part {
            case .literal(let text):
                output += text
            case .field(let letter, let count):
                switch letter {
                case "G": output += fields.era == 0 ? "BC" : "AD"
                case "y", "Y":
                    let year = letter == "y" ? fields.year ?? 0 : fields.yearForWeekOfYear ?? fields.year ?? 0
                    output += count == 2 ? padded(year % 100, 2) : padded(year, count)
                case "M", "L":
                    let month = fields.month ?? 1
                    if count >= 4 {
                        output += JavaDateFormat.months[month - 1]
                    } else if count == 3 {
                        output += String(JavaDateFormat.months[month - 1].prefix(3))
                    } else {
                        output += padded(month, count)
                    }
                case "d": output += padded(fields.day ?? 1, count)
                case "D": output += padded(calendar.ordinality(of: .day, in: .year, for: date) ?? 1, count)
                case "E":
                    let name = JavaDateFormat.weekdays[(fields.weekday ?? 1) - 1]
                    output += count >= 4 ? name : String(name.prefix(3))
                case "u":
                    let weekday = fields.weekday ?? 1
                    output += padded(weekday == 1 ? 7 : weekday - 1, count)
                case "a": output += (fields.hour ?? 0) < 12 ? "AM" : "PM"
                case "H": output += padded(fields.hour ?? 0, count)
                case "k": output += padded((fields.hour ?? 0) == 0 ? 24 : fields.hour ?? 0, count)
                case "K": output += padded((fields.hour ?? 0) % 12, count)
                case "h": output += padded((fields.hour ?? 0) % 12 == 0 ? 12 : (fields.hour ?? 0) % 12, count)
                case "m": output += padded(fields.minute ?? 0, count)
                case "s": output += padded(fields.second ?? 0, count)
                case "S": output += padded((fields.nanosecond ?? 0) / 1_000_000, count)
                case "z":
                    if count >= 4 {
                        output += timeZone.localizedName(for: .standard, locale: Locale(identifier: "en_US")) ?? ""
                    } else {
                        output += JavaDateFormat.shortZoneName(timeZone, at: date)
                    }
                case "Z": output += JavaDateFormat.offsetText(offsetSeconds, colon: false, zulu: false, minutes: true)
                case "X":
                    output += JavaDateFormat.offsetText(
                        offsetSeconds, colon: count >= 3, zulu: true, minutes: count >= 2 || offsetSeconds % 3600 != 0)
                default: output += String(repeating: letter, count: count)
                }
            }
        }
        return output
    }

    /// Java's short zone name: `UTC` for UTC, else the English abbreviation (`AEDT`) where Foundation has one.
    private static func shortZoneName(_ timeZone: TimeZone, at date: Date) -> String {
        if ["UTC", "GMT", "Etc/UTC", "Z"].contains(timeZone.identifier) { return "UTC" }
        let style: NSTimeZone.NameStyle =
            timeZone.isDaylightSavingTime(for: date) ? .shortDaylightSaving : .shortStandard
        if let name = timeZone.localizedName(for: style, locale: Locale(identifier: "en_AU")), !name.hasPrefix("GMT") {
            return name
        }
        return timeZone.abbreviation(for: date) ?? "GMT"
    }

    private static func offsetText(_ seconds: Int, colon: Bool, zulu: Bool, minutes: Bool) -> String {
        if zulu, seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        let hours = abs(seconds) / 3600
        let rest = abs(seconds) % 3600 / 60
        var text = sign + (hours < 10 ? "0" : "") + String(hours)
        if minutes { text += (colon ? ":" : "") + (rest < 10 ? "0" : "") + String(rest) }
        return text
    }

    /// Reads a date written in this pattern (through Foundation's formatter, whose pattern letters are the
    /// Unicode ones Java's mostly share), or `nil`.
    func date(from text: String, in timeZone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.date(from: text)
    }

    /// Reads the date forms WireMock's `parseDate` accepts without a format: ISO 8601 with or without a time
    /// and offset, and RFC 1123 (`Tue, 05 Mar 2024 10:11:12 GMT`).
    static func parseDefault(_ text: String) -> Date? {
        let iso = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            iso.formatOptions = options
            if let date = iso.date(from: text) { return date }
        }
        for pattern in ["yyyy-MM-dd'T'HH:mm:ss", "EEE, dd MMM yyyy HH:mm:ss zzz"] {
            if let date = JavaDateFormat(pattern).date(from: text, in: TemplateDate.utc) { return date }
        }
        return nil
    }
}
