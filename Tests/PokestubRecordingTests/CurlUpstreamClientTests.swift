import Foundation
import PokestubCore
import PokestubTestSupport
import PokestubUpstream
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("The libcurl upstream client against a scripted upstream on 127.0.0.1")
struct CurlUpstreamClientTests {
    private func send(
        _ client: CurlUpstreamClient, _ request: UpstreamRequest
    ) async -> Result<UpstreamResponse, UpstreamError> {
        await withCheckedContinuation { continuation in
            client.send(request) { continuation.resume(returning: $0) }
        }
    }

    @Test("gzip, deflate and br bodies arrive decoded", arguments: ["gzip", "deflate", "br"])
    func decodes(encoding: String) async throws {
        #expect(CurlUpstreamClient.supportedEncodings.contains(encoding), "this libcurl cannot decode \(encoding)")
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let client = CurlUpstreamClient()
        defer { client.shutdown() }
        let response = try await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/" + encoding))
            .get()
        #expect(response.status == 200)
        #expect(response.headers["Content-Encoding"] == encoding)
        #expect(try JSONValue.parse(response.body)["from"] == .string("/" + encoding))
    }

    @Test("method, raw path and query, body and headers reach the upstream as sent, Host set to the upstream")
    func forwardsFaithfully() async throws {
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let client = CurlUpstreamClient()
        defer { client.shutdown() }
        let original = HTTPRequest(
            method: "PATCH", rawURL: "/echo/a%2Fb/caf%C3%A9?x=1&y=%20z&x=2",
            headers: HTTPHeaders([
                (name: "Host", value: "127.0.0.1:8080"), (name: "Connection", value: "close"),
                (name: "Content-Type", value: "application/octet-stream"), (name: "X-Trace", value: "one"),
                (name: "X-Trace", value: "two"), (name: "TE", value: "trailers"), (name: "X-Empty", value: ""),
            ]),
            body: Data([0, 1, 2, 255]))
        let response = try await send(client, UpstreamRequest(forwarding: original, to: upstream.baseURL)).get()
        let echo = try JSONValue.parse(response.body)
        #expect(echo["method"] == .string("PATCH"))
        #expect(echo["target"] == .string("/echo/a%2Fb/caf%C3%A9?x=1&y=%20z&x=2"))
        #expect(echo["body"] == .string(Data([0, 1, 2, 255]).base64EncodedString()))
        guard case .array(let pairs)? = echo["headers"] else {
            Issue.record("no headers in \(echo)")
            return
        }
        let headers = pairs.compactMap { pair -> (String, String)? in
            guard case .array(let items) = pair, items.count == 2, let name = items[0].stringValue,
                let value = items[1].stringValue
            else { return nil }
            return (name.lowercased(), value)
        }
        #expect(headers.filter { $0.0 == "x-trace" }.map(\.1) == ["one", "two"])
        #expect(headers.first { $0.0 == "host" }?.1 == "127.0.0.1:\(upstream.port)")
        #expect(headers.contains { $0.0 == "x-empty" && $0.1 == "" })
        #expect(!headers.contains { ["connection", "te", "expect"].contains($0.0) && $0.1 != "keep-alive" })
        #expect(headers.first { $0.0 == "content-length" }?.1 == "4")
    }

    @Test("redirects come back as they are; several Set-Cookie fields stay separate")
    func redirectsAndCookies() async throws {
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let client = CurlUpstreamClient()
        defer { client.shutdown() }
        let redirect = try await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/redirect")).get()
        #expect(redirect.status == 301)
        #expect(redirect.headers["Location"] == upstream.baseURL + "/target")
        #expect(upstream.requests("GET /target") == 0)
        let cookies = try await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/cookies")).get()
        #expect(cookies.headers.values(for: "Set-Cookie").count == 3)
    }

    @Test("field values lose the spaces and tabs around them (RFC 9110 §5.6.3), not those inside")
    func optionalWhitespace() async throws {
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let client = CurlUpstreamClient()
        defer { client.shutdown() }
        let padded = try await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/padded")).get()
        #expect(padded.headers["X-Padded"] == "spaced  value")
        #expect(padded.headers["X-Blank"] == "")
    }

    @Test("refused connections, timeouts and cut-off bodies are errors of the right kind")
    func failures() async throws {
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let client = CurlUpstreamClient(configuration: CurlUpstreamConfiguration(timeoutMilliseconds: 500))
        defer { client.shutdown() }
        let slow = await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/slow?ms=3000"))
        #expect(throws: UpstreamError.self) { try slow.get() }
        if case .failure(let error) = slow { #expect(error.kind == .timedOut && error.status == 504) }
        let cut = await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/cut"))
        if case .failure(let error) = cut {
            #expect(error.kind == .failed && error.status == 502)
        } else {
            Issue.record("a cut-off body was accepted: \(cut)")
        }
        let reserved = try ListeningSocket.refusingPort()
        defer { withExtendedLifetime(reserved) {} }
        let port = reserved.port
        let refused = await send(client, UpstreamRequest(method: "GET", url: "http://127.0.0.1:\(port)/x"))
        if case .failure(let error) = refused {
            #expect(error.kind == .unreachable && error.status == 502)
            #expect(error.message.contains("127.0.0.1"))
        } else {
            Issue.record("a refused connection gave \(refused)")
        }
    }

    @Test("an answer's body counts against the memory budget while it arrives: past it 502, and all given back")
    func bodyInMemoryBudget() async throws {
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let memory = MemoryBudget(limit: 4 << 20)
        let client = CurlUpstreamClient(memory: memory)
        defer { client.shutdown() }
        // 8 MiB of zeros, a few kilobytes on the wire: refused once it passes what the budget holds.
        let inflating = await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/inflating?mb=8"))
        if case .failure(let error) = inflating {
            #expect(error.status == 502)
            #expect(error.message.contains("limits.maxMemoryBytes"), "\(error.message)")
        } else {
            Issue.record("an 8 MiB body passed a 4 MiB memory budget")
        }
        #expect(memory.used.upstreamBodies == 0)
        // What fits is received, and given back once the exchange is over.
        let fits = try await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/inflating?mb=2"))
            .get()
        #expect(fits.body.count == 2 << 20)
        #expect(memory.used.upstreamBodies == 0)
        #expect(memory.used.total == 0)
    }

    @Test("a URL libcurl refuses fails alone: every later request on the same worker still goes through")
    func badURLDoesNotPoisonWorker() async throws {
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let client = CurlUpstreamClient(configuration: CurlUpstreamConfiguration(workers: 1))
        defer { client.shutdown() }
        for _ in 0..<3 {
            let bad = await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/sp ace"))
            if case .failure(let error) = bad {
                #expect(error.status == 400 || error.status == 502, "\(error)")
            }
            let good = await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/gzip"))
            guard case .success(let response) = good else {
                Issue.record("a request after a refused URL failed: \(good)")
                return
            }
            #expect(response.status == 200)
        }
    }

    @Test("sequential requests reuse the worker's connection")
    func reusesConnections() async throws {
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let client = CurlUpstreamClient(configuration: CurlUpstreamConfiguration(workers: 1))
        defer { client.shutdown() }
        for _ in 0..<5 {
            _ = try await send(client, UpstreamRequest(method: "GET", url: upstream.baseURL + "/gzip")).get()
        }
        #expect(client.statistics.transfers == 5)
        #expect(client.statistics.connectionsOpened == 1)
        #expect(upstream.connections == 1)
    }

    @Test("a client that never sends opens no connection and starts no thread")
    func idleClient() async throws {
        let upstream = try await ScriptedUpstream.start()
        defer { upstream.stop() }
        let client = CurlUpstreamClient()
        client.shutdown()
        #expect(client.statistics.transfers == 0)
        #expect(upstream.connections == 0)
    }
}
