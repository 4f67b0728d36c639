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

    /// The answer that refuses a request head, or `nil` when its framing is unambiguous and its declared
    /// length within the limit.
    ///
    /// The rules, from RFC 9112:
    /// - a field name is a token, with no whitespace before the colon (§5.1: "No whitespace is allowed
    ///   between the field name and colon... A server MUST reject... with a response status code of 400");
    /// - `Content-Length` with `Transfer-Encoding` is refused (§6.1: such a message "might indicate an attempt
    ///   to perform request smuggling"; §6.3 item 3 lets a server reject it);
    /// - `Transfer-Encoding` other than exactly `chunked` is refused, since the body length cannot then be
    ///   read reliably (§6.3 item 4: "MUST respond with the 400 (Bad Request) status code and then close the
    ///   connection");
    /// - several `Content-Length` values that differ, or one that is not a decimal number, are refused
    ///   (§6.3 item 5);
    /// - a declared `Content-Length` over ``Limits/maxBodyBytes`` gets 413 before any of the body is read;
    /// - a target and header fields over ``Limits/maxHeaderBytes`` get 431 (RFC 6585 §5);
    /// - a target with more than ``maxQueryArguments`` query arguments gets 414 (RFC 9110 §15.5.15).
    ///
    /// - Parameters:
    ///   - rawURI: The request target as received.
    ///   - headers: The request's header fields, as libmicrohttpd parsed them.
    ///   - limits: The server's limits.
    static func refusal(rawURI: String, headers: HTTPHeaders, limits: Limits) -> HTTPResponse? {
        let arguments = queryArgumentCount(rawURI)
        if arguments > maxQueryArguments {
            return refuse(414, "request target with \(arguments) query arguments, more than \(maxQueryArguments)")
        }
        var headBytes = rawURI.utf8.count
        var contentLengths: [Substring] = []
        var transferCodings: [String] = []
        for field in headers {
            headBytes += field.name.utf8.count + field.value.utf8.count
            guard HTTPSyntax.isToken(field.name) else {
                return refuse(400, "header field name \(quoted(field.name)) is not a token (RFC 9112 §5.1)")
            }
            if field.name.caseInsensitiveEquals("Content-Length") {
                contentLengths += field.value.split(separator: ",", omittingEmptySubsequences: false)
            } else if field.name.caseInsensitiveEquals("Transfer-Encoding") {
                transferCodings += field.value.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
            }
        }
        if headBytes > limits.maxHeaderBytes {
            return refuse(431, "request target and header fields larger than \(limits.maxHeaderBytes) bytes")
        }
        if !transferCodings.isEmpty {
            guard contentLengths.isEmpty else {
                return refuse(400, "Content-Length and Transfer-Encoding together (RFC 9112 §6.1)")
            }
            guard transferCodings == ["chunked"] else {
                return refuse(400, "Transfer-Encoding other than chunked (RFC 9112 §6.3)")
            }
            return nil
        }
        guard let text = contentLengths.first?.trimmingSpaces else { return nil }
        // Values are compared byte for byte: two that differ only by canonical equivalence are not all digits.
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            contentLengths.dropFirst().allSatisfy({ $0.trimmingSpaces.utf8.elementsEqual(text.utf8) })
        else {
            return refuse(400, "Content-Length values that disagree or are not numbers (RFC 9112 §6.3)")
        }
        // Longer than Int's digits is larger than any limit.
        let declared = text.utf8.count > 18 ? Int.max : Int(text) ?? Int.max
        if declared > limits.maxBodyBytes {
            return refuse(413, "request body larger than the limit of \(limits.maxBodyBytes) bytes")
        }
        return nil
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
    /// the pool, so up to here libmicrohttpd hands the request over and beyond it pokestub answers 414
    /// itself; and ``ServerCore`` brings the deadline of a connection with more forward to a second, which
    /// ends one libmicrohttpd has lost.
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

    private static func refuse(_ status: Int, _ reason: String) -> HTTPResponse {
        var response = HTTPResponse.text(reason + "\n", status: status)
        response.headers.replace(name: "Connection", value: "close")
        return response
    }

    private static func quoted(_ name: String) -> String {
        "\"" + String(name.unicodeScalars.flatMap { $0.escaped(asASCII: true) }) + "\""
    }
}
