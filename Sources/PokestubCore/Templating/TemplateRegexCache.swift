import Foundation
import PokestubLocking

/// The regular expressions `regexExtract` has compiled, by pattern, shared by every render.
///
/// A stub's template usually passes the same literal pattern on every request, so compiling it once saves
/// ICU's compile on each render. It also bounds a leak in swift-corelibs-foundation: on Linux,
/// `_CFRegularExpressionCreate` copies a pattern longer than 256 UTF-16 units into a `malloc`ed buffer and
/// frees it only when the pattern fails to compile (Sources/CoreFoundation/CFRegularExpression.c), so each
/// successful compile of such a pattern loses twice its length in bytes. With the cache that happens once per
/// distinct pattern, not once per request.
///
/// Holds at most ``capacity`` patterns; when full it starts over, so a template whose pattern comes from the
/// request cannot grow it without bound. `NSRegularExpression` is immutable and documented as safe to use
/// from several threads at once (Apple: "NSRegularExpression", Thread Safety).
enum TemplateRegexCache {
    /// The most patterns kept at once.
    static let capacity = 256

    private final class Compiled: @unchecked Sendable {
        let regex: NSRegularExpression
        init(_ regex: NSRegularExpression) { self.regex = regex }
    }

    private static let compiled = Locked([String: Compiled]())

    /// The compiled `pattern`, from the cache or compiled now.
    ///
    /// - Throws: What `NSRegularExpression(pattern:)` throws for a pattern that does not compile (not cached).
    static func regex(_ pattern: String) throws -> NSRegularExpression {
        if let hit = compiled.withLock({ $0[pattern] }) { return hit.regex }
        let regex = try NSRegularExpression(pattern: pattern)
        let entry = Compiled(regex)
        compiled.withLock { cache in
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[pattern] = entry
        }
        return regex
    }
}
