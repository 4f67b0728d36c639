import Foundation

/// The text helpers whose work is not linear in what they read, or whose result's size is worked out before
/// it is made. Text is compared as Java's `String` compares it, unit for unit (UTF-8 bytes here, which
/// match where Java's UTF-16 units do), not by canonical equivalence.
extension TemplateHelpers {
    /// Handlebars.java's `replace` (Java's `String.replace`): every occurrence of `target`, from the left and
    /// not overlapping, replaced with `replacement`; an empty target changes nothing. The result's size is
    /// counted first and checked against the budget before it is made.
    static func replace(
        _ target: String, with replacement: String, in text: String, renderer: inout TemplateRenderer
    ) throws(TemplateRenderError) -> String {
        guard !target.isEmpty else { return text }
        let count = try occurrences(of: target, in: text, budget: &renderer.budget, found: nil)
        guard count > 0 else { return text }
        let (growth, overflow) = (replacement.utf8.count - target.utf8.count).multipliedReportingOverflow(by: count)
        let (size, sumOverflow) = text.utf8.count.addingReportingOverflow(growth)
        guard !overflow, !sumOverflow else { throw TemplateBudget.tooLarge(renderer.budget.limits.maxBytes) }
        try renderer.budget.make(bytes: size)
        var output: [UInt8] = []
        output.reserveCapacity(size)
        let source = Array(text.utf8)
        var copied = 0
        _ = try occurrences(of: target, in: text, budget: &renderer.budget) { offset in
            output += source[copied..<offset]
            output += replacement.utf8
            copied = offset + target.utf8.count
        }
        output += source[copied...]
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `text` holds `needle` (Java's `String.contains`), searched within the budget.
    static func contains(
        _ needle: String, in text: String, budget: inout TemplateBudget
    ) throws(TemplateRenderError) -> Bool {
        guard !needle.isEmpty else { return true }
        var found = false
        _ = try occurrences(of: needle, in: text, budget: &budget, stopAtFirst: true) { _ in found = true }
        return found
    }

    /// Counts the occurrences of `target` (not empty) in `text`, from the left and not overlapping, calling
    /// `found` with each one's byte offset. Every byte scanned or compared counts toward the budget, so a
    /// search whose candidates keep almost matching (`aaa…ab` in `aaa…a`) stops when the budget is spent.
    private static func occurrences(
        of target: String, in text: String, budget: inout TemplateBudget, stopAtFirst: Bool = false,
        found: ((Int) -> Void)?
    ) throws(TemplateRenderError) -> Int {
        var text = text
        var target = target
        let workLimit = min(Int.max / 2, budget.remainingSteps + 1) * TemplateBudget.bytesPerStep
        let (count, work) = text.withUTF8 { haystack in
            target.withUTF8 { needle in
                search(needle, in: haystack, workLimit: workLimit, stopAtFirst: stopAtFirst, found: found)
            }
        }
        try budget.process(bytes: work)
        return count
    }

    /// The search itself: `memchr` finds each candidate's first byte, `memcmp` compares the rest. Stops once
    /// `workLimit` bytes are scanned and compared; the work done is returned with the count.
    private static func search(
        _ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, workLimit: Int,
        stopAtFirst: Bool, found: ((Int) -> Void)?
    ) -> (count: Int, work: Int) {
        guard let base = haystack.baseAddress, let pattern = needle.baseAddress, needle.count <= haystack.count else {
            return (0, haystack.count)
        }
        let last = haystack.count - needle.count
        var index = 0
        var count = 0
        var work = 0
        while index <= last, work <= workLimit {
            guard let hit = memchr(base + index, Int32(pattern[0]), last - index + 1) else {
                work += last - index + 1
                break
            }
            let offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            work += offset - index + needle.count
            if memcmp(base + offset, pattern, needle.count) == 0 {
                count += 1
                found?(offset)
                if stopAtFirst { break }
                index = offset + needle.count
            } else {
                index = offset + 1
            }
        }
        return (count, work)
    }

    /// Handlebars.java's `stripTags` (the expression `<[^>]*>` removed): each `<` up to the next `>` goes; a
    /// `<` with no `>` after it stays, as does everything after it. One pass, where the expression took time
    /// quadratic in a run of `<`.
    static func stripTags(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                output.append(bytes[index])
                index += 1
                continue
            }
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
                output += bytes[index...]
                break
            }
            index = close + 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Java's `URLEncoder.encode(text, UTF-8)`: letters, digits and `.-*_` stay, space becomes `+`, every
    /// other byte `%XX`. The result's size is worked out and checked before it is made.
    static func formEncode(_ text: String, budget: inout TemplateBudget) throws(TemplateRenderError) -> String {
        var size = 0
        for byte in text.utf8 { size += isFormUnreserved(byte) || byte == UInt8(ascii: " ") ? 1 : 3 }
        try budget.make(bytes: size)
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(size)
        for byte in text.utf8 {
            if isFormUnreserved(byte) {
                output.append(byte)
            } else if byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isFormUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"),
            UInt8(ascii: "_"):
            true
        default: false
        }
    }

    static func formDecode(_ text: String) -> String {
        PercentDecoding.decode(Substring(text), plusAsSpace: true)
    }
}
