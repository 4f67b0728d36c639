/// One reason the admin API gave for refusing a request: an entry of `{"errors": [{"title": "...",
/// "detail": "..."}]}` (WireMock's error shape).
public struct AdminErrorDetail: Sendable, Hashable, CustomStringConvertible {
    /// A short summary, e.g. `Invalid stub mapping`.
    public var title: String
    /// The specifics, e.g. `request.urlPath: must be a string, not number`.
    public var detail: String?

    /// Creates a reason.
    ///
    /// - Parameters:
    ///   - title: A short summary.
    ///   - detail: The specifics.
    public init(title: String, detail: String? = nil) {
        self.title = title
        self.detail = detail
    }

    /// `title: detail`, or the title alone.
    public var description: String {
        detail.map { "\(title): \($0)" } ?? title
    }
}
