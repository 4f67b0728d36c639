import CCurl
import Foundation
import PokestubCore

/// What libcurl's callbacks fill during one transfer: the body and the header fields of the last response.
///
/// Used by one worker thread only, for one transfer; the callbacks reach it through their user-data pointer.
final class CurlTransfer {
    var body = Data()
    var fields: [(name: String, value: String)] = []
    let maxBodyBytes: Int
    var bodyTooLarge = false
    /// Whether a body follows the header fields (not for `HEAD`), so `Content-Length` says how much to reserve.
    let expectsBody: Bool

    /// The most bytes reserved up front from a `Content-Length`; a larger body grows past it as it arrives.
    static let maxReservedBytes = 16 << 20

    init(maxBodyBytes: Int, expectsBody: Bool = true) {
        self.maxBodyBytes = maxBodyBytes
        self.expectsBody = expectsBody
    }

    /// `CURLOPT_WRITEFUNCTION`: appends body bytes (already decoded), refusing more than the limit.
    static let writeBody: pokestub_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        guard let data, length > 0 else { return 0 }
        if transfer.body.count + length > transfer.maxBodyBytes {
            transfer.bodyTooLarge = true
            return 0  // libcurl stops with CURLE_WRITE_ERROR
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { transfer.body.append($0, count: length) }
        return length
    }

    /// `CURLOPT_HEADERFUNCTION`: one header line per call, status lines included; a status line starts a new
    /// response (after `100 Continue`), so earlier fields are dropped.
    static let readHeader: pokestub_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        guard let data, length > 0 else { return length }
        var bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: length))
        // Trim CR and LF as bytes: a Swift String treats "\r\n" as one Character.
        while let last = bytes.last, last == 0x0D || last == 0x0A { bytes.removeLast() }
        transfer.addHeaderLine(bytes)
        return length
    }

    /// Adds one header line, without its line ending.
    func addHeaderLine(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if bytes.starts(with: Array("HTTP/".utf8)) {
            fields = []
            return
        }
        if bytes[0] == 0x20 || bytes[0] == 0x09, !fields.isEmpty {
            // Obsolete line folding (RFC 9112 §5.2): a continuation of the previous value.
            let continuation = CurlTransfer.fieldValue(bytes[...])
            fields[fields.count - 1].value += " " + continuation
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(decoding: bytes[..<colon], as: UTF8.self)
        let value = CurlTransfer.fieldValue(bytes[(colon + 1)...])
        fields.append((name: name, value: value))
        if expectsBody, body.isEmpty, name.lowercased() == "content-length", let length = Int(value) {
            reserve(length)
        }
    }

    /// A field value's bytes as text, without the optional whitespace around it (``Substring/trimmingSpaces``).
    static func fieldValue(_ bytes: ArraySlice<UInt8>) -> String {
        String(String(decoding: bytes, as: UTF8.self)[...].trimmingSpaces)
    }

    /// Reserves room for a body of `length` bytes (as `Content-Length` announces it, before decoding), so it
    /// is received without growing the buffer chunk by chunk; at most ``maxReservedBytes`` and never more
    /// than the limit.
    func reserve(_ length: Int) {
        let capacity = min(length, maxBodyBytes, CurlTransfer.maxReservedBytes)
        if capacity > 0 { body.reserveCapacity(capacity) }
        reservedBytes = capacity
    }

    /// The bytes reserved for the body from `Content-Length` (0: none).
    private var reservedBytes = 0

    /// The body as it should be kept: the received `Data` itself when it filled exactly what was reserved
    /// for it, otherwise a copy of its bytes in a buffer of its size.
    ///
    /// A proxied or recorded answer shares these bytes for as long as the journal keeps it
    /// (``ResponseBody/init(passingThrough:)``), and the journal's memory budget counts its size. A body that
    /// grew as it arrived (no `Content-Length`, or decoded from gzip) can hold up to twice its size, so it is
    /// copied; one that arrived into exactly the room reserved for it is kept as it is.
    func keptBody() -> Data {
        guard body.count >= ResponseBody.sharingThreshold, body.count != reservedBytes else { return body }
        return body.withUnsafeBytes { Data(bytes: $0.baseAddress!, count: $0.count) }
    }
}
