import PokestubCore

/// The checks a request's head gets before its body is read: messages whose length two HTTP parsers could
/// read differently are refused (request smuggling), and so is a body pokestub would refuse anyway.
///
/// Each refusal is answered at once, on libmicrohttpd's first call for the request, with
/// `Connection: close`: the bytes after a head that is refused are never read as a body or as another
/// request, and a client that sent `Expect: 100-continue` gets the refusal instead of `100 Continue`
/// (RFC 9110 §10.1.1).
enum RequestFraming {
    /// What the checks need from the server's configuration.
    struct Limits: Sendable {
        /// The largest request body accepted, in bytes.
        var maxBodyBytes: Int
        /// The most bytes of request target and header fields (names and values) accepted.
        var maxHeaderBytes: Int
    }

    /// Whether a request head declares a body: a `Transfer-Encoding` field, or a `Content-Length` other than
    /// 0. A request with neither has none (RFC 9112 §6.3 item 7), so nothing of it is due after its head.
    ///
    /// - Parameter headers: The request's header fields, already passed by ``refusal(rawURI:version:headers:limits:)``.
    static func declaresBody(_ headers: HTTPHeaders) -> Bool {
        headers.contains { field in
            field.name.caseInsensitiveEquals("Transfer-Encoding")
                || (field.name.caseInsensitiveEquals("Content-Length")
                    && !field.value.utf8.allSatisfy { $0 == UInt8(ascii: "0") })
        }
    }

    /// The answer that refuses a request head, or `nil` when its framing is unambiguous and its declared
    /// length within the limit.
    ///
    /// pokestub decides these itself, on the request target as received and the header fields with their full
    /// values, so that libmicrohttpd 0.9 and 1.0, which differ on several, answer a client alike. The rules:
    /// - no whitespace in the request target (RFC 9112 §3: an invalid request-line gets 400, and "A recipient
    ///   SHOULD NOT attempt to autocorrect and then process the request");
    /// - the path's percent-encodings are well formed and none encodes NUL (RFC 3986 §2.1: `%` and two hex
    ///   digits; a request-line that breaks the grammar is invalid, RFC 9112 §3: "SHOULD respond with a 400
    ///   (Bad Request)"); the query is matched as received, a stray `%` included;
    /// - a field name is a token, with no whitespace before the colon (RFC 9112 §5.1: "A server MUST reject...
    ///   with a response status code of 400");
    /// - no field value holds NUL, CR or LF (RFC 9110 §5.5: "a recipient... MUST either reject the message or
    ///   replace each of those characters with SP");
    /// - one `Host` field, none allowed only before HTTP/1.1 (RFC 9112 §3.2: "MUST respond with a 400... to any
    ///   HTTP/1.1 request message that lacks a Host header field and to any request message that contains more
    ///   than one Host header field line");
    /// - a `Transfer-Encoding` other than exactly `chunked` gets 501 (RFC 9112 §6.1: a coding the server does
    ///   not implement; libmicrohttpd 1.0 answers so itself, before pokestub sees the request, and RFC 9112
    ///   §6.3 item 4 asks the same close of the connection); a second `Transfer-Encoding` field, one in an
    ///   HTTP/1.0 request (RFC 9112 §6.1), or one beside `Content-Length` (§6.1, §6.3 item 3) gets 400;
    /// - one `Content-Length` field, all digits (RFC 9112 §6.3 item 5); repeated fields are refused even when
    ///   they agree, which RFC 9110 §8.6 allows ("MAY either reject the message as invalid or...");
    /// - a declared `Content-Length` over ``Limits/maxBodyBytes`` gets 413 before any of the body is read;
    /// - a target and header fields over ``Limits/maxHeaderBytes`` get 431 (RFC 6585 §5);
    /// - a target with more than ``maxQueryArguments`` query arguments gets 414 (RFC 9110 §15.5.15).
    ///
    /// A refusal of an admin request (a path under `/__admin` or a session's `/__admin`) is JSON in the admin
    /// API's error shape; any other is text.
    ///
    /// - Parameters:
    ///   - rawURI: The request target as received.
    ///   - version: The request's HTTP version, e.g. `HTTP/1.1`.
    ///   - headers: The request's header fields, as libmicrohttpd parsed them, values whole.
    ///   - limits: The server's limits.
    static func refusal(rawURI: String, version: String, headers: HTTPHeaders, limits: Limits) -> HTTPResponse? {
        let refuse = { (status: Int, reason: String) in Self.refuse(status, reason, rawURI: rawURI) }
        let arguments = queryArgumentCount(rawURI)
        if arguments > maxQueryArguments {
            return refuse(414, "request target with more than \(maxQueryArguments) query arguments")
        }
        if hasWhitespace(rawURI) {
            return refuse(400, "whitespace in the request target (RFC 9112 §3)")
        }
        if let problem = pathEncodingProblem(rawURI) {
            return refuse(400, "request target path \(problem) (RFC 3986 §2.1)")
        }
        var headBytes = rawURI.utf8.count
        var contentLengths = 0
        var contentLength: String?
        var transferEncodings = 0
        var hosts = 0
        for field in headers {
            headBytes += field.name.utf8.count + field.value.utf8.count
            guard HTTPSyntax.isToken(field.name) else {
                return refuse(400, "header field name \(quoted(field.name)) is not a token (RFC 9112 §5.1)")
            }
            if field.value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) {
                return refuse(400, "header field \(quoted(field.name)) has NUL, CR or LF in its value (RFC 9110 §5.5)")
            }
            if field.name.caseInsensitiveEquals("Content-Length") {
                contentLengths += 1
                contentLength = field.value
            } else if field.name.caseInsensitiveEquals("Transfer-Encoding") {
                guard String(field.value[...].trimmingSpaces).caseInsensitiveEquals("chunked") else {
                    return refuse(501, "Transfer-Encoding other than chunked (RFC 9112 §6.1)")
                }
                transferEncodings += 1
            } else if field.name.caseInsensitiveEquals("Host") {
                hosts += 1
            }
        }
        if headBytes > limits.maxHeaderBytes {
            return refuse(431, "request target and header fields larger than \(limits.maxHeaderBytes) bytes")
        }
        if hosts > 1 || (hosts == 0 && version == "HTTP/1.1") {
            return refuse(
                400, hosts > 1 ? "more than one Host field (RFC 9112 §3.2)" : "HTTP/1.1 without Host (RFC 9112 §3.2)")
        }
        if transferEncodings > 0 {
            guard transferEncodings == 1 else { return refuse(400, "more than one Transfer-Encoding field") }
            guard version != "HTTP/1.0" else {
                return refuse(400, "Transfer-Encoding in an HTTP/1.0 request (RFC 9112 §6.1)")
            }
            guard contentLengths == 0 else {
                return refuse(400, "Content-Length and Transfer-Encoding together (RFC 9112 §6.1)")
            }
            return nil
        }
        guard let text = contentLength?[...].trimmingSpaces else { return nil }
        guard contentLengths == 1 else { return refuse(400, "more than one Content-Length field (RFC 9110 §8.6)") }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return refuse(400, "Content-Length that is not a number (RFC 9112 §6.3)")
        }
        // Longer than Int's digits is larger than any limit.
        let declared = text.utf8.count > 18 ? Int.max : Int(text) ?? Int.max
        if declared > limits.maxBodyBytes {
            return refuse(413, "request body larger than the limit of \(limits.maxBodyBytes) bytes")
        }
        return nil
    }

    /// Whether `rawURI` holds a space, a tab, a vertical tab or a form feed; read on its contiguous UTF-8 bytes
    /// (walking the `UTF8View` index by index cost a thousand instructions a request).
    static func hasWhitespace(_ rawURI: String) -> Bool {
        var rawURI = rawURI
        return rawURI.withUTF8 { bytes in bytes.contains { $0 == 0x20 || $0 == 0x09 || $0 == 0x0B || $0 == 0x0C } }
    }

    /// What is wrong with the percent-encodings of `rawURI`'s path (before any `?`), or `nil`: a `%` without
    /// two hex digits after it, or `%00`, which would end the path early for anything that reads it as a C
    /// string.
    static func pathEncodingProblem(_ rawURI: String) -> String? {
        var rawURI = rawURI
        return rawURI.withUTF8 { bytes -> String? in
            let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            var index = 0
            while index < end {
                guard bytes[index] == UInt8(ascii: "%") else {
                    index += 1
                    continue
                }
                guard index + 2 < end, let high = PercentDecoding.hexValue(bytes[index + 1]),
                    let low = PercentDecoding.hexValue(bytes[index + 2])
                else { return "has a % without two hex digits after it" }
                if high == 0 && low == 0 { return "encodes NUL (%00)" }
                index += 3
            }
            return nil
        }
    }

    /// The most query arguments a request target may have: 414 beyond.
    ///
    /// libmicrohttpd 0.9.75 parses the query into a record per argument (about 64 bytes) in the connection's
    /// memory pool before pokestub sees the request, and when they overflow the pool it queues a 431 and then
    /// loses it: `parse_initial_message_line` ignores the failure of `MHD_parse_arguments_`, and its caller sets
    /// the state back to reading headers with the read buffer given up, so the connection waits for nothing
    /// until a deadline closes it (`src/microhttpd/connection.c`; the same in 0.9.77). Measured on loopback
    /// with the pool a quarter above the header limit, `a&a&…` stalled from 300 arguments with an 8 KiB
    /// header limit, 800 with 32 KiB, 1,252 with 64 KiB. ``HTTPServer`` adds room for this many records to
    /// the pool, and ``ServerCore`` empties a longer query for libmicrohttpd 0.9 before it parses it
    /// (`pokestub_mhd_drop_query`), so the request is handed over and pokestub answers 414 itself from the
    /// target as received. libmicrohttpd 1.0 answers an overflow itself.
    static let maxQueryArguments = 500

    /// How many query arguments `rawURI` has, as libmicrohttpd counts them (`&`-separated, empty ones
    /// included), counting no further than one past ``maxQueryArguments``.
    /// Runs on the contiguous UTF-8 bytes (twice per request: for the deadline and for the refusal).
    static func queryArgumentCount(_ rawURI: String) -> Int {
        var rawURI = rawURI
        return rawURI.withUTF8 { bytes in
            guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return 0 }
            var count = 1
            for byte in bytes[(mark + 1)...] where byte == UInt8(ascii: "&") {
                count += 1
                if count > maxQueryArguments { break }
            }
            return count
        }
    }

    /// The refusal: JSON in the admin API's error shape for an admin path, text otherwise; always closing the
    /// connection, so nothing after the refused head is read.
    private static func refuse(_ status: Int, _ reason: String, rawURI: String) -> HTTPResponse {
        let path = rawURI.prefix { $0 != "?" }
        var response: HTTPResponse
        if path.hasPrefix("/__admin") || (path.hasPrefix(Session.pathPrefix + "/") && path.contains("/__admin")) {
            response = AdminError(status: status, title: "Refused request", detail: reason).response
        } else {
            response = HTTPResponse.text(reason + "\n", status: status)
        }
        response.headers.replace(name: "Connection", value: "close")
        return response
    }

    private static func quoted(_ name: String) -> String {
        "\"" + String(name.unicodeScalars.flatMap { $0.escaped(asASCII: true) }) + "\""
    }
}
