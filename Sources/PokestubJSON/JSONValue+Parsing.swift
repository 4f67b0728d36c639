import Foundation

extension JSONValue {
    /// Parses JSON text.
    ///
    /// ```swift
    /// let page = try JSONValue.parse(#"{"count": 1302, "next": null}"#)
    /// let count = page["count"]?.intValue  // 1302
    /// ```
    ///
    /// pokestub's own parser (the one `JSONDocument` keeps its tape from) with the rules of
    /// swift-corelibs-foundation's `JSONSerialization`, so stubs read the same on every platform: the same
    /// texts are accepted, a number is an ``integer(_:)`` when its text is a whole number that fits 64 bits and
    /// a ``double(_:)`` otherwise, a repeated member name keeps its first spelling and its last value, and
    /// nesting is limited to 512 levels (a deeper text is refused, never a stack overflow).
    ///
    /// - Parameter data: JSON text (RFC 8259): UTF-8 or, as Foundation reads it, UTF-16 or UTF-32 told by a
    ///   byte order mark or by its zero bytes; at most 512 MiB. Top-level scalars are accepted; a comma before
    ///   `]` or `}` is not (Foundation's parser takes it, WireMock's Jackson does not).
    /// - Returns: The parsed value.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line and column of the problem.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        try JSONDocument.value(parsing: data)
    }

    /// Parses JSON text given as a string.
    ///
    /// - Parameter text: JSON text such as `{"name": "bulbasaur"}`.
    /// - Returns: The parsed value.
    /// - Throws: ``JSONSyntaxError`` with the 1-based line and column of the problem.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONDocument.value(parsing: text)
    }
}
