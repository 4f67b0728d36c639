/// The work one request's response templates may do: how many steps rendering may take and how large any
/// string it makes may be (config `limits.maxTemplateSteps` and `limits.maxResponseBytes`).
///
/// One budget covers every template of a request's answer (header values, the body, `bodyFileName` and the
/// body file's content) and every helper they call. Past it the request is answered 500 naming the stub and
/// the mustache that passed it (``ResponseTemplate/render(_:for:serverBaseURL:stub:limits:)``); the daemon
/// keeps serving. See ``TemplateBudget`` for what a step is.
package struct TemplateLimits: Sendable, Equatable {
    /// Steps one request's templates may take (config `limits.maxTemplateSteps`, default 500,000).
    ///
    /// A step is a node rendered, a loop iteration, a helper call, a parameter or hash argument evaluated, 256
    /// bytes of text a helper reads or makes (4 bytes of JSON `jsonPath` parses), or 10 regular-expression
    /// engine steps. The shipped list page (`stubs/__files/list-page.hbs`) takes 58,171 steps for all 1,351
    /// pokemon and 95,658 for all 2,223 items (the longest shipped list), so the default leaves it 5 times
    /// that. Measured on this project's 2-core AMD EPYC with a release build, templates that spend the
    /// default budget stop after 0.1 to 0.16 s (nested `#each` over a request's array, with `math` and `if`
    /// inside), 0.08 s (`matches` or `regexExtract` that backtrack) and 0.02 s (`jsonPath` parsing the body
    /// in a loop); the slowest found, `{{request.body}}` escaped in a loop, reaches `maxBytes` after 0.32 s.
    /// A debug build is about ten times slower.
    package var maxSteps: Int
    /// The largest string rendering may make, in bytes: the answer's body, a header value, a helper's
    /// result or a value printed as text (config `limits.maxResponseBytes`, default 64 MiB). Checked before
    /// the string is made wherever its size is known first (`randomValue`, `replace`, `base64`, `urlEncode`,
    /// `join`, HTML escaping, appending to the output); a helper whose result is at most three times its
    /// input (case mappings) is checked once it is made.
    package var maxBytes: Int

    /// The default steps, ``maxSteps``.
    package static let defaultMaxSteps = 500_000
    /// The default largest string, ``maxBytes``: 64 MiB, four times the largest request body accepted by
    /// default (`limits.maxBodyBytes`), so a template may echo any request.
    package static let defaultMaxBytes = 64 << 20

    /// Limits of `maxSteps` steps and `maxBytes` bytes.
    ///
    /// - Parameters:
    ///   - maxSteps: Steps one request's templates may take.
    ///   - maxBytes: The largest string rendering may make, in bytes.
    package init(maxSteps: Int = TemplateLimits.defaultMaxSteps, maxBytes: Int = TemplateLimits.defaultMaxBytes) {
        self.maxSteps = max(0, maxSteps)
        self.maxBytes = max(0, maxBytes)
    }
}
