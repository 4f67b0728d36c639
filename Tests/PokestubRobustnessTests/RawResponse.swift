import Foundation
import PokestubCore
import PokestubTestSupport

/// A response read off a raw socket.
struct RawResponse: Sendable {
    /// The status code, or 0 when the connection closed without a status line.
    var status: Int
    /// The body bytes.
    var body: [UInt8]
    /// How long from the first byte sent to the connection closing.
    var elapsed: Duration
    /// The header fields as received, in order.
    var headers: [(name: String, value: String)] = []

    /// The first value of the header field `name` (case-insensitive), or `nil`.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as JSON, or `nil`.
    var json: JSONValue? { try? JSONValue.parse(Data(body)) }

    /// The first error title of a WireMock-style refusal, `{"errors": [{"title": …}]}`.
    var errorTitle: String? {
        guard case .array(let errors)? = json?["errors"], case .string(let title)? = errors.first?["title"] else {
            return nil
        }
        return title
    }

    static func exchange(
        port: Int, method: String, target: String, body: [UInt8], timeout: Duration
    ) throws
        -> RawResponse
    {
        let head =
            "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
            + "Content-Type: application/json\r\nConnection: close\r\n\r\n"
        return try exchangeRaw(port: port, bytes: Array(head.utf8) + body, timeout: timeout)
    }

    /// Connects, sends `bytes` as they are, and reads until the server closes or `timeout` passes (each send
    /// and each read may wait that long). Blocks the calling thread: call it from a Dispatch thread.
    static func exchangeRaw(port: Int, bytes: [UInt8], timeout: Duration = .seconds(5)) throws -> RawResponse {
        let connection = try RawConnection(port: port, timeout: timeout, sendTimeout: timeout)
        let started = ContinuousClock.now
        // A server may answer (413) and close before taking the whole body: a failed send is not an error.
        _ = try? connection.send(bytes)
        let received = connection.receiveBlocking()
        return RawResponse(parsing: received, elapsed: ContinuousClock.now - started)
    }

    init(parsing bytes: [UInt8], elapsed: Duration) {
        self.elapsed = elapsed
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(separator) })
        else {
            status = 0
            body = []
            return
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n").first ?? ""
        status =
            statusLine.hasPrefix("HTTP/1.") ? Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0 : 0
        headers = head.split(separator: "\r\n").dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let raw = Array(bytes[(end + 4)...])
        let chunked = headers.contains {
            $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased() == "chunked"
        }
        body = chunked ? RawResponse.dechunked(raw) : raw
    }

    /// A chunked body's data (RFC 9112 §7.1), as far as it arrived whole; chunk extensions and trailers left out.
    static func dechunked(_ raw: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        var index = 0
        while let lineEnd = (index..<max(index, raw.count - 1)).first(where: { raw[$0] == 13 && raw[$0 + 1] == 10 }) {
            let sizeText = String(decoding: raw[index..<lineEnd], as: UTF8.self).prefix { $0 != ";" }
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0,
                lineEnd + 2 + size <= raw.count
            else { break }
            data += raw[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
        }
        return data
    }
}
