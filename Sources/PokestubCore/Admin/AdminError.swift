/// A refused admin request: a 4xx status (507 for a write the memory budget cannot hold) and a JSON reason, `{"errors": [{"title": "...", "detail": "..."}]}`
/// (WireMock's error shape), with any further members an operation reports beside `errors` (a timed-out wait's
/// `count`, `requests` and `nearMisses`).
package struct AdminError: Error, Sendable {
    /// The status, 400 to 499.
    package var status: Int
    /// A short summary, e.g. `Invalid stub mapping`.
    package var title: String
    /// The specifics, e.g. `request.urlPath: must be a string, not number`.
    package var detail: String?
    /// Members of the JSON body beside `errors`, e.g. `["count": 1]`; `errors` itself cannot be replaced.
    package var extraMembers: [String: JSONValue]
    /// Seconds after which asking again may succeed, sent as `Retry-After` (RFC 9110 §10.2.3), or `nil`.
    package var retryAfterSeconds: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - status: The status, 400 to 499.
    ///   - title: A short summary.
    ///   - detail: The specifics, or `nil`.
    ///   - extraMembers: Members of the body beside `errors`; none by default.
    package init(status: Int, title: String, detail: String? = nil, extraMembers: [String: JSONValue] = [:]) {
        self.status = status
        self.title = title
        self.detail = detail
        self.extraMembers = extraMembers
    }

    /// The response carrying the error; a 401 also names the scheme in `WWW-Authenticate`.
    package var response: HTTPResponse {
        var error: [String: JSONValue] = ["title": .string(title)]
        if let detail { error["detail"] = .string(detail) }
        var body = extraMembers
        body["errors"] = .array([.object(error)])
        var response = HTTPResponse.json(.object(body), status: status)
        if status == 401 { response.headers.add(name: "WWW-Authenticate", value: #"Bearer realm="pokestub admin""#) }
        if let retryAfterSeconds { response.headers.add(name: "Retry-After", value: String(retryAfterSeconds)) }
        return response
    }

    /// 507 Insufficient Storage (RFC 4918 §11.5) for an admin write the daemon's memory budget cannot hold
    /// (``MemoryBudget``): waiting does not help, removing stubs or ending sessions does.
    static func insufficientStorage(_ detail: String) -> AdminError {
        AdminError(status: 507, title: "Insufficient storage", detail: detail)
    }

    /// 429 Too Many Requests (RFC 6585 §4) with `Retry-After: 1` for an admin answer the daemon's memory budget
    /// cannot hold now (``MemoryBudget``): answers being sent give their memory back when they are done.
    static func busy(_ detail: String) -> AdminError {
        var error = AdminError(status: 429, title: "Too many admin answers at once", detail: detail)
        error.retryAfterSeconds = 1
        return error
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
