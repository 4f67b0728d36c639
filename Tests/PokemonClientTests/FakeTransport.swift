import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fake HTTP server inside `URLSession`: a `URLProtocol` that answers from a handler, so the live
/// client runs its real request and response code without sockets.
///
/// Each instance owns a unique host name, so tests running in parallel never see each other's
/// requests.
struct FakeTransport: Sendable {
    struct Response: Sendable {
        var status: Int = 200
        var body: Data = Data()
        var headers: [String: String] = ["Content-Type": "application/json"]
    }

    typealias Handler = @Sendable (URLRequest) -> Response

    let host: String
    let baseURL: URL
    let session: URLSession

    init(handler: @escaping Handler) {
        host = "stub-\(UUID().uuidString.lowercased()).test"
        baseURL = URL(string: "http://\(host):8080")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [FakeTransportURLProtocol.self]
        session = URLSession(configuration: configuration)
        FakeTransportRegistry.shared.register(host: host, handler: handler)
    }

    /// The requests received so far, in order.
    var requests: [URLRequest] {
        FakeTransportRegistry.shared.requests(host: host)
    }

    /// The request URLs received so far, as strings.
    var requestedURLs: [String] {
        requests.compactMap { $0.url?.absoluteString }
    }
}

/// Handlers and received requests by host.
///
/// `@unchecked Sendable` because every stored property is only touched while `lock` is held;
/// `URLProtocol` instances are created by Foundation on its own threads, so they reach this
/// through a shared instance rather than through anything the compiler can check.
final class FakeTransportRegistry: @unchecked Sendable {
    static let shared = FakeTransportRegistry()

    private let lock = NSLock()
    private var handlers: [String: FakeTransport.Handler] = [:]
    private var received: [String: [URLRequest]] = [:]

    func register(host: String, handler: @escaping FakeTransport.Handler) {
        lock.withLock { handlers[host] = handler }
    }

    func requests(host: String) -> [URLRequest] {
        lock.withLock { received[host] ?? [] }
    }

    func handle(_ request: URLRequest) -> FakeTransport.Response? {
        guard let host = request.url?.host else { return nil }
        let handler: FakeTransport.Handler? = lock.withLock {
            received[host, default: []].append(request)
            return handlers[host]
        }
        return handler?(request)
    }
}

final class FakeTransportURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let answer = FakeTransportRegistry.shared.handle(request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
            return
        }
        let response = HTTPURLResponse(
            url: url,
            statusCode: answer.status,
            httpVersion: "HTTP/1.1",
            headerFields: answer.headers
        )!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: answer.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
