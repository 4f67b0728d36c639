/// An admin request as a route's handler sees it: the HTTP request and the values its path template's
/// `{name}` segments took.
struct AdminRequest: Sendable {
    /// The request as received (for a session, with the path under `/__admin/` that the session's API answers).
    let http: HTTPRequest
    /// The path parameters in template order, e.g. `[("id", "3f2a…")]` for `mappings/{id}`.
    let parameters: [(name: String, value: String)]

    /// The value of the path parameter `name`: every `{name}` of a route's template is present, so a handler
    /// asks only for its own template's names (any other is empty).
    func parameter(_ name: String) -> String {
        parameters.first { $0.name == name }?.value ?? ""
    }
}
