/// What one request's templates have spent of their ``TemplateLimits``, counted as they render.
///
/// A step is one unit of work of about constant cost: rendering a node, one iteration of `#each` or a
/// section, one helper call, one parameter or hash argument evaluated (a lookup walks the contexts),
/// ``bytesPerStep`` bytes of text a helper reads or makes, or
/// ``regexStepsPerStep`` steps of the regular-expression engine. Work that grows faster than what it reads
/// (searching for text, regular expressions) is charged as it goes, so it stops when the budget is spent.
struct TemplateBudget {
    /// Bytes of text read or made that count as one step.
    static let bytesPerStep = 256
    /// Regular-expression engine steps that count as one step.
    static let regexStepsPerStep = 10

    let limits: TemplateLimits
    /// Steps taken so far.
    private(set) var steps = 0

    init(limits: TemplateLimits) {
        self.limits = limits
    }

    /// Steps left before the budget is spent.
    var remainingSteps: Int { max(0, limits.maxSteps - steps) }

    /// Takes `count` steps.
    ///
    /// - Throws: ``TemplateRenderError/overBudget(_:)`` once more than ``TemplateLimits/maxSteps`` are taken.
    @inline(__always)
    mutating func step(_ count: Int = 1) throws(TemplateRenderError) {
        steps = steps > Int.max - count ? Int.max : steps + count
        guard steps <= limits.maxSteps else {
            throw .overBudget("more than \(limits.maxSteps) steps (limits.maxTemplateSteps)")
        }
    }

    /// Takes the steps for reading or making `bytes` bytes of text: one per ``bytesPerStep``.
    @inline(__always)
    mutating func process(bytes: Int) throws(TemplateRenderError) {
        try step(bytes / TemplateBudget.bytesPerStep)
    }

    /// Checks that a string of `bytes` bytes may be made.
    ///
    /// - Throws: ``TemplateRenderError/overBudget(_:)`` when `bytes` is over ``TemplateLimits/maxBytes``.
    func allow(bytes: Int) throws(TemplateRenderError) {
        guard bytes <= limits.maxBytes else { throw TemplateBudget.tooLarge(limits.maxBytes) }
    }

    /// Checks that a string of `bytes` bytes may be made, and takes the steps for making it.
    mutating func make(bytes: Int) throws(TemplateRenderError) {
        try allow(bytes: bytes)
        try process(bytes: bytes)
    }

    static func tooLarge(_ limit: Int) -> TemplateRenderError {
        .overBudget("output larger than limits.maxResponseBytes (\(limit) bytes)")
    }
}
