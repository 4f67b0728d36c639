/// A refused admin request: a 4xx status and a JSON reason, `{"errors": [{"title": "...", "detail": "..."}]}`
/// (WireMock's error shape), with any further members an operation reports beside `errors` (a timed-out wait's
/// `count`, `requests` and `nearMisses`).
public struct AdminError: Error, Sendable {
    /// The status, 400 to 499.
    public var status: Int
    /// A short summary, e.g. `Invalid stub mapping`.
    public var title: String
    /// The specifics, e.g. `request.urlPath: must be a string, not number`.
    public var detail: String?
    /// Members of the JSON body beside `errors`, e.g. `["count": 1]`; `errors` itself cannot be replaced.
    public var extraMembers: [String: JSONValue]

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - status: The status, 400 to 499.
    ///   - title: A short summary.
    ///   - detail: The specifics, or `nil`.
    ///   - extraMembers: Members of the body beside `errors`; none by default.
    public init(status: Int, title: String, detail: String? = nil, extraMembers: [String: JSONValue] = [:]) {
        self.status = status
        self.title = title
        self.detail = detail
        self.extraMembers = extraMembers
    }

    /// The response carrying the error; a 401 also names the scheme in `WWW-Authenticate`.
    public var response: HTTPResponse {
        var error: [String: JSONValue] = ["title": .string(title)]
        if let detail { error["detail"] = .string(detail) }
        var body = extraMembers
        body["errors"] = .array([.object(error)])
        var response = HTTPResponse.json(.object(body), status: status)
        if status == 401 { response.headers.add(name: "WWW-Authenticate", value: #"Bearer realm="pokestub admin""#) }
        return response
    }

    static func notFound(_ what: String) -> AdminError {
        AdminError(status: 404, title: "Not found", detail: what)
    }

    static func badRequest(_ title: String, _ detail: String? = nil) -> AdminError {
        AdminError(status: 400, title: title, detail: detail)
    }

    /// 404 for a path under `/__admin/` that no route has.
    static func noOperation(_ method: String, _ path: String) -> AdminError {
        .notFound("no admin operation at \(method) \(path)")
    }

    /// 405 for a path that a route has, under another method.
    static func methodNotAllowed(_ method: String, _ path: String) -> AdminError {
        AdminError(status: 405, title: "Method not allowed", detail: "\(method) is not supported on \(path)")
    }
}
