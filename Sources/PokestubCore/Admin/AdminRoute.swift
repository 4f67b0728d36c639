/// One admin operation as data: a method, a path template under `/__admin/` and the handler that answers it.
///
/// The template's segments are literals or `{name}` parameters (`"scenarios/{name}/state"`); the router
/// extracts the parameters and hands them to the handler in an ``AdminRequest``. A handler answers at once
/// (``Action/now(_:)``) or later (``Action/later(_:)``, `POST /__admin/requests/wait`).
struct AdminRoute: Sendable {
    /// A segment of a path template.
    enum Segment: Sendable, Hashable {
        /// A segment that must be exactly this text.
        case literal(String)
        /// A segment that takes any text, passed to the handler under this name.
        case parameter(String)
    }

    /// What the route does with a request.
    enum Action: Sendable {
        /// Answers at once.
        case now(@Sendable (AdminAPI, AdminRequest) throws(AdminError) -> HTTPResponse)
        /// Answers at once or later (a ``HTTPReply/deferred(start:)``).
        case later(@Sendable (AdminAPI, AdminRequest) throws(AdminError) -> HTTPReply)
    }

    /// The HTTP method, e.g. `GET`.
    let method: String
    /// The path template under `/__admin/`, e.g. `mappings/{id}`.
    let template: String
    /// The template's segments.
    let segments: [Segment]
    /// The handler.
    let action: Action

    /// Creates a route.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - template: The path under `/__admin/`, segments separated by `/`, each a literal or a `{name}`.
    ///   - action: The handler.
    init(_ method: String, _ template: String, _ action: Action) {
        self.method = method
        self.template = template
        segments = template.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}")
                ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        self.action = action
    }

    /// Creates a route that answers at once.
    static func now(
        _ method: String, _ template: String,
        _ respond: @escaping @Sendable (AdminAPI, AdminRequest) throws(AdminError) -> HTTPResponse
    ) -> AdminRoute {
        AdminRoute(method, template, .now(respond))
    }

    /// Creates a route that may answer later.
    static func later(
        _ method: String, _ template: String,
        _ reply: @escaping @Sendable (AdminAPI, AdminRequest) throws(AdminError) -> HTTPReply
    ) -> AdminRoute {
        AdminRoute(method, template, .later(reply))
    }
}
