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

    /// The most header fields an upstream answer may have; past it the answer is refused (502).
    ///
    /// An answer pokestub passes on must fit what pokestub serves: libmicrohttpd sends a response's fields
    /// from the connection's memory pool, which an answer of thousands of fields overflows, leaving the
    /// client an empty reply. PokeAPI's answers have about 20.
    static let maxHeaderFields = 500

    /// The most bytes of header lines (status lines included) an upstream answer may have: 64 KiB, twice
    /// pokestub's own request header limit.
    static let maxHeaderBytes = 64 << 10

    /// Why the upstream's header fields cannot be passed on, once one of them could not be; the transfer
    /// stops there.
    private(set) var headerProblem: String?
    private var headerBytes = 0

    /// The daemon's memory budget, charged for the body as it arrives, or `nil`.
    let memory: MemoryBudget?
    /// What the body holds of ``memory``, taken ``memoryStepBytes`` at a time; given back with the transfer.
    private var memoryCharges: [MemoryCharge] = []
    private var chargedBytes = 0
    /// Why the memory budget refused more of the body, once it did; the transfer stops there.
    private(set) var memoryRefusal: String?

    /// How much more of ``memory`` is charged each time the body outgrows its charge: 1 MiB.
    static let memoryStepBytes = 1 << 20

    init(maxBodyBytes: Int, expectsBody: Bool = true, memory: MemoryBudget? = nil) {
        self.maxBodyBytes = maxBodyBytes
        self.expectsBody = expectsBody
        self.memory = memory
    }

    /// `CURLOPT_WRITEFUNCTION`: appends body bytes (already decoded), refusing more than the limit or than the
    /// memory budget holds.
    static let writeBody: pokestub_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        guard let data, length > 0 else { return 0 }
        if transfer.body.count + length > transfer.maxBodyBytes {
            transfer.bodyTooLarge = true
            return 0  // libcurl stops with CURLE_WRITE_ERROR
        }
        guard transfer.chargeMemory(upTo: transfer.body.count + length) else { return 0 }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { transfer.body.append($0, count: length) }
        return length
    }

    /// Charges ``memory`` for a body of `bytes`, a step at a time; `false` (with ``memoryRefusal`` set) when the
    /// budget cannot hold it.
    private func chargeMemory(upTo bytes: Int) -> Bool {
        guard let memory else { return true }
        while chargedBytes < bytes {
            let step = max(CurlTransfer.memoryStepBytes, bytes - chargedBytes)
            guard let charge = memory.charge(step, for: .upstreamBody) else {
                memoryRefusal = "response body of more than \(chargedBytes) bytes: " + memory.refusal
                return false
            }
            memoryCharges.append(charge)
            chargedBytes += step
        }
        return true
    }

    /// `CURLOPT_HEADERFUNCTION`: one header line per call, status lines included; a status line starts a new
    /// response (after `100 Continue`), so earlier fields are dropped. Returning less than the line's length
    /// stops the transfer (``headerProblem`` says why).
    static let readHeader: pokestub_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        guard let data, length > 0 else { return length }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: length))
        return transfer.receiveHeaderLine(bytes) ? length : 0
    }

    /// Takes one header line as libcurl hands it over, line ending included; `false` when the answer cannot
    /// be passed on, with ``headerProblem`` set.
    ///
    /// Each line must end in CRLF and hold no other CR, LF or NUL (RFC 9112 §2.2, RFC 9110 §5.5): libcurl
    /// also ends a line at a bare LF, which would turn the rest of a value into a field of its own on the
    /// wire and in a recording. Fields and header bytes are bounded by ``maxHeaderFields`` and
    /// ``maxHeaderBytes``.
    func receiveHeaderLine(_ line: [UInt8]) -> Bool {
        headerBytes += line.count
        guard headerBytes <= CurlTransfer.maxHeaderBytes else {
            headerProblem = "header fields larger than \(CurlTransfer.maxHeaderBytes) bytes"
            return false
        }
        guard line.count >= 2, line[line.count - 2] == 0x0D, line[line.count - 1] == 0x0A else {
            headerProblem = "a header line that does not end in CRLF (RFC 9112 §2.2)"
            return false
        }
        let content = Array(line.dropLast(2))
        guard !content.contains(where: { $0 == 0x00 || $0 == 0x0A || $0 == 0x0D }) else {
            headerProblem = "a header field with NUL, CR or LF in its value (RFC 9110 §5.5)"
            return false
        }
        addHeaderLine(content)
        guard fields.count <= CurlTransfer.maxHeaderFields else {
            headerProblem = "more than \(CurlTransfer.maxHeaderFields) header fields"
            return false
        }
        return true
    }

    /// Adds one header line, without its line ending.
    func addHeaderLine(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if bytes.starts(with: Array("HTTP/".utf8)) {
            fields = []
            headerBytes = bytes.count + 2
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
