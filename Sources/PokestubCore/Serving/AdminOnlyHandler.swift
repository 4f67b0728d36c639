/// The handler of the admin API's own port (config `adminPort`): admin requests go to the engine, after its
/// token check; anything else is 404.
package struct AdminOnlyHandler: HTTPHandler {
    /// The engine whose admin API this serves.
    package let engine: StubEngine

    /// Creates the handler.
    package init(engine: StubEngine) {
        self.engine = engine
    }

    package func handle(_ request: HTTPRequest) -> HTTPReply {
        guard AdminAPI.isAdmin(request) else {
            return .response(AdminError.notFound("this port serves only the admin API under /__admin").response)
        }
        return engine.handleAdmin(request)
    }
}
