/// A refused admin request: a 4xx status and a JSON reason, `{"errors": [{"title": "...", "detail": "..."}]}`
/// (WireMock's error shape).
public struct AdminError: Error, Sendable {
    /// The status, 400 to 499.
    public var status: Int
    /// A short summary, e.g. `Invalid stub mapping`.
    public var title: String
    /// The specifics, e.g. `request.urlPath: must be a string, not number`.
    public var detail: String?

    /// Creates an error.
    public init(status: Int, title: String, detail: String? = nil) {
        self.status = status
        self.title = title
        self.detail = detail
    }

    /// The response carrying the error.
    public var response: HTTPResponse {
        var error: [String: JSONValue] = ["title": .string(title)]
        if let detail { error["detail"] = .string(detail) }
        var response = HTTPResponse.json(.object(["errors": .array([.object(error)])]), status: status)
        if status == 401 { response.headers.add(name: "WWW-Authenticate", value: #"Bearer realm="pokestub admin""#) }
        return response
    }

    static func notFound(_ what: String) -> AdminError {
        AdminError(status: 404, title: "Not found", detail: what)
    }

    static func badRequest(_ title: String, _ detail: String? = nil) -> AdminError {
        AdminError(status: 400, title: title, detail: detail)
    }
}
