import Foundation
import PokestubCore
import Testing

@Suite("Headers that cross to the upstream")
struct HeaderPolicyTests {
    @Test("hop-by-hop fields and those named by Connection stay behind (RFC 9110 §7.6.1)")
    func forwarded() {
        let headers = HTTPHeaders([
            (name: "Host", value: "127.0.0.1:8080"), (name: "Connection", value: "keep-alive, X-Private"),
            (name: "X-Private", value: "1"), (name: "Keep-Alive", value: "timeout=5"), (name: "TE", value: "trailers"),
            (name: "Trailer", value: "X"), (name: "Transfer-Encoding", value: "chunked"),
            (name: "Upgrade", value: "h2c"),
            (name: "Proxy-Authorization", value: "Basic x"), (name: "Proxy-Connection", value: "close"),
            (name: "Content-Length", value: "3"), (name: "Accept-Encoding", value: "gzip"),
            (name: "Expect", value: "100-continue"),
            (name: "Accept", value: "application/json"), (name: "X-Trace", value: "a"), (name: "X-Trace", value: "b"),
            (name: "Authorization", value: "Bearer t"),
        ])
        let forwarded = HeaderPolicy.forwardedRequestHeaders(headers)
        #expect(forwarded.fields.map(\.name) == ["Accept", "X-Trace", "X-Trace", "Authorization"])
        let request = UpstreamRequest(
            forwarding: HTTPRequest(
                method: "GET", rawURL: "http://ignored:1/api/v2/pokemon/?a=%20b&c", headers: headers),
            to: "https://pokeapi.co/")
        #expect(request.url == "https://pokeapi.co/api/v2/pokemon/?a=%20b&c")
    }

    @Test("proxied responses lose hop-by-hop fields and the encoding of the decoded body")
    func proxied() {
        let headers = HTTPHeaders([
            (name: "Content-Type", value: "text/plain"), (name: "Content-Encoding", value: "br"),
            (name: "Content-Length", value: "10"), (name: "Transfer-Encoding", value: "chunked"),
            (name: "Set-Cookie", value: "a=1"), (name: "Set-Cookie", value: "b=2"), (name: "Date", value: "now"),
        ])
        #expect(
            HeaderPolicy.proxiedResponseHeaders(headers).fields.map(\.name) == [
                "Content-Type", "Set-Cookie", "Set-Cookie", "Date",
            ])
    }
}
