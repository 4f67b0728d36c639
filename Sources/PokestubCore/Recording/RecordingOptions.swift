/// What the recorder keeps and how it writes it: redaction, volatile headers, body placement, matching.
///
/// The defaults make recordings fit to commit: no secrets, no per-call noise, JSON readable in the mapping,
/// big and binary bodies in `__files/`.
public struct RecordingOptions: Sendable, Equatable {
    /// Header names whose values are replaced by ``redactedValue`` in recordings, compared
    /// case-insensitively. Config key `recording.redactHeaders`.
    public var redactedHeaders: [String]
    /// Words that mark a query parameter as secret: a parameter is redacted when one of the words of its
    /// name (split at `_`, `-`, `.` and lower-to-upper case changes, compared case-insensitively) is in this
    /// list, so `api_key`, `apiKey`, `access_token` and `client-secret` are. Config key
    /// `recording.redactQueryParameters`.
    public var redactedQueryWords: [String]
    /// Response header names never written (``defaultVolatileHeaders``).
    public var volatileHeaders: [String] {
        didSet { volatileNames = Set(volatileHeaders.map(\.asciiLowercased)) }
    }
    /// ``volatileHeaders`` lower-cased, made once rather than for every answer recorded.
    private(set) var volatileNames: Set<String>
    /// Bodies larger than this many bytes go to a file under `__files/`; smaller JSON is written as
    /// `jsonBody` and smaller text as `body`. Binary bodies always go to a file. Config key
    /// `recording.largeBodyBytes`, default 65,536.
    public var largeBodyBytes: Int
    /// Request header names to match on in recordings (WireMock's `captureHeaders`), by name with whether
    /// the comparison ignores case. Empty by default: recordings match on method, path, query and body.
    public var capturedHeaders: [String: Bool]
    /// Whether recordings are written to the stub folder (WireMock's `persist`); when `false` they are only
    /// served from memory until the next reset.
    public var persist: Bool
    /// Only requests that match this pattern are recorded (WireMock's `filters`); others are proxied.
    package var filter: RequestPattern?

    /// What a redacted value becomes.
    public static let redactedValue = "<redacted>"

    /// The default redacted header names.
    public static let defaultRedactedHeaders = ["Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Auth-Token"]

    /// The default response header names never written, lower-cased: fields that change on every call (dates
    /// and ages, tracing and request ids, CDN and cache bookkeeping) and would make each re-recording a diff.
    public static let defaultVolatileHeaders = HeaderPolicy.defaultVolatileHeaders

    /// The default secret words in query parameter names.
    public static let defaultRedactedQueryWords = [
        "token", "key", "apikey", "secret", "password", "passwd", "signature", "sig", "auth", "credential",
        "credentials",
    ]

    /// Creates options; every parameter defaults to pokestub's defaults.
    ///
    /// - Parameters:
    ///   - redactedHeaders: Header names to redact.
    ///   - redactedQueryWords: Words that make a query parameter secret.
    ///   - volatileHeaders: Response header names to drop.
    ///   - largeBodyBytes: The largest body, in bytes, kept inside the mapping file.
    ///   - capturedHeaders: Request headers to match on (name to case-insensitive flag).
    ///   - persist: Whether to write files.
    public init(
        redactedHeaders: [String] = RecordingOptions.defaultRedactedHeaders,
        redactedQueryWords: [String] = RecordingOptions.defaultRedactedQueryWords,
        volatileHeaders: [String] = RecordingOptions.defaultVolatileHeaders, largeBodyBytes: Int = 65_536,
        capturedHeaders: [String: Bool] = [:], persist: Bool = true
    ) {
        self.redactedHeaders = redactedHeaders
        self.redactedQueryWords = redactedQueryWords
        self.volatileHeaders = volatileHeaders
        volatileNames = Set(volatileHeaders.map(\.asciiLowercased))
        self.largeBodyBytes = largeBodyBytes
        self.capturedHeaders = capturedHeaders
        self.persist = persist
        self.filter = nil
    }

    /// Whether a header's value is redacted.
    ///
    /// - Parameter name: The field name, any case.
    /// - Returns: `true` when the name is in ``redactedHeaders``.
    public func isRedactedHeader(_ name: String) -> Bool {
        redactedHeaders.contains { $0.caseInsensitiveEquals(name) }
    }

    /// Whether a query parameter's value is redacted.
    ///
    /// - Parameter name: The decoded parameter name.
    /// - Returns: `true` when one of the name's words is in ``redactedQueryWords``.
    public func isRedactedQueryParameter(_ name: String) -> Bool {
        guard !redactedQueryWords.isEmpty else { return false }
        let words = RecordingOptions.words(of: name)
        return redactedQueryWords.contains { secret in
            words.contains { $0 == secret.asciiLowercased } || name.asciiLowercased == secret.asciiLowercased
        }
    }

    /// Splits a name into lower-cased words at `_`, `-`, `.`, spaces and lower-to-upper case changes:
    /// `clientSecret` gives `client`, `secret`.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in name {
            if character == "_" || character == "-" || character == "." || character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase && previousWasLower {
                words.append(current)
                current = ""
            }
            current += character.lowercased()
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// A `Set-Cookie` or `Cookie` value with each cookie's value redacted but names and attributes kept:
    /// `session=abc; Path=/; HttpOnly` gives `session=<redacted>; Path=/; HttpOnly`.
    static func redactCookie(_ value: String, isSetCookie: Bool) -> String {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        var out: [String] = []
        for (index, part) in parts.enumerated() {
            // In Set-Cookie only the first pair is the cookie; the rest are attributes (RFC 6265 §4.1.1).
            if (isSetCookie && index > 0) || !part.contains("=") {
                out.append(String(part))
                continue
            }
            let equals = part.firstIndex(of: "=")!
            out.append(String(part[...equals]) + redactedValue)
        }
        return out.joined(separator: ";")
    }

    /// A header value as it is recorded: redacted when the name is secret.
    func recordedValue(name: String, value: String) -> String {
        guard isRedactedHeader(name) else { return value }
        if name.caseInsensitiveEquals("Set-Cookie") { return RecordingOptions.redactCookie(value, isSetCookie: true) }
        if name.caseInsensitiveEquals("Cookie") { return RecordingOptions.redactCookie(value, isSetCookie: false) }
        return RecordingOptions.redactedValue
    }
}
