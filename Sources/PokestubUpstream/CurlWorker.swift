import CCurl
import Foundation
import PokestubCore

/// One libcurl easy handle and the transfers done with it, on the one thread that owns it.
///
/// A handle is kept across successful transfers for its connection cache, and replaced after any failed
/// one: libcurl 7.88 can leave a handle it refused a URL on (`CURLE_URL_MALFORMAT`) in a state where the
/// next transfer's `CURLOPT_BUFFERSIZE` fails with `CURLE_BAD_FUNCTION_ARGUMENT`, and a handle that timed
/// out or lost its connection mid-transfer has nothing worth keeping. Replacing costs one
/// `curl_easy_init` and a new connection for the next transfer, on errors only.
final class CurlWorker {
    private var handle: UnsafeMutableRawPointer?
    private let configuration: CurlUpstreamConfiguration
    /// The daemon's memory budget, charged for bodies while they arrive, or `nil`.
    private let memory: MemoryBudget?
    /// `CURLOPT_ERRORBUFFER`: libcurl writes a readable message here on failure.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Connections libcurl opened for the last transfer (0 when one was reused).
    private(set) var lastConnectionCount = 0

    /// `CURLOPT_BUFFERSIZE`: libcurl's receive buffer. Its default of 16 KiB takes a 542 KB body in 34
    /// reads and as many write callbacks; 256 KiB takes it in a few.
    static let receiveBufferBytes = 256 << 10

    init(configuration: CurlUpstreamConfiguration, memory: MemoryBudget? = nil) {
        self.configuration = configuration
        self.memory = memory
        handle = curl_easy_init()
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    /// Frees the handle, closing its connections.
    func close() {
        if let handle { curl_easy_cleanup(handle) }
        handle = nil
        errorBuffer.deallocate()
    }

    /// Discards the handle and its connections for a fresh one.
    private func replaceHandle() {
        if let handle { curl_easy_cleanup(handle) }
        handle = curl_easy_init()
    }

    /// Performs one exchange.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - timeoutMilliseconds: The longest the exchange may take (`CURLOPT_TIMEOUT_MS`): what is left of the
    ///     upstream timeout after the request waited for a worker.
    /// - Returns: The response with its body decoded, or why there is none.
    func perform(_ request: UpstreamRequest, timeoutMilliseconds: Int) -> Result<UpstreamResponse, UpstreamError> {
        let result = performOnce(request, timeoutMilliseconds: timeoutMilliseconds)
        if case .failure = result { replaceHandle() }
        return result
    }

    private func performOnce(
        _ request: UpstreamRequest, timeoutMilliseconds: Int
    ) -> Result<UpstreamResponse, UpstreamError> {
        lastConnectionCount = 0
        guard let handle else {
            return .failure(UpstreamError(kind: .failed, url: request.url, message: "curl_easy_init failed"))
        }
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let transfer = CurlTransfer(
            maxBodyBytes: configuration.maxResponseBytes, expectsBody: request.method != "HEAD", memory: memory)
        let context = Unmanaged.passRetained(transfer)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer {
            // A pooled handle must not keep pointers to this transfer's memory.
            _ = pokestub_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, nil)
            _ = pokestub_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, nil)
            _ = pokestub_curl_setopt_list(handle, CURLOPT_HTTPHEADER, nil)
            curl_slist_free_all(headerList)
            context.release()
        }
        var setupFailure: CURLcode = CURLE_OK
        func check(_ code: CURLcode) {
            if code != CURLE_OK && setupFailure == CURLE_OK { setupFailure = code }
        }
        check(pokestub_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        check(pokestub_curl_setopt_string(handle, CURLOPT_URL, request.url))
        check(pokestub_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        check(pokestub_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        check(pokestub_curl_setopt_long(handle, CURLOPT_PATH_AS_IS, 1))
        check(
            pokestub_curl_setopt_long(
                handle, CURLOPT_CONNECTTIMEOUT_MS, min(configuration.connectTimeoutMilliseconds, timeoutMilliseconds)))
        check(pokestub_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds))
        check(pokestub_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        check(pokestub_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        check(pokestub_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""))
        check(pokestub_curl_setopt_long(handle, CURLOPT_HTTP_CONTENT_DECODING, 1))
        check(pokestub_curl_setopt_long(handle, CURLOPT_BUFFERSIZE, CurlWorker.receiveBufferBytes))
        check(pokestub_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        check(pokestub_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, CurlTransfer.writeBody))
        check(pokestub_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque()))
        check(pokestub_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, CurlTransfer.readHeader))
        check(pokestub_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque()))
        setMethodAndBody(request, handle: handle, check: check)
        headerList = CurlWorker.headerList(for: request)
        check(pokestub_curl_setopt_list(handle, CURLOPT_HTTPHEADER, headerList))
        guard setupFailure == CURLE_OK else {
            return .failure(error(setupFailure, url: request.url, transfer: transfer))
        }

        let code = curl_easy_perform(handle)
        var connections = 0
        _ = pokestub_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connections)
        lastConnectionCount = connections
        guard code == CURLE_OK else { return .failure(error(code, url: request.url, transfer: transfer)) }
        var status = 0
        _ = pokestub_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(
            UpstreamResponse(status: status, headers: HTTPHeaders(transfer.fields), body: transfer.keptBody()))
    }

    private func setMethodAndBody(
        _ request: UpstreamRequest, handle: UnsafeMutableRawPointer, check: (CURLcode) -> Void
    ) {
        let method = request.method
        if method == "HEAD" {
            check(pokestub_curl_setopt_long(handle, CURLOPT_NOBODY, 1))
            return
        }
        if request.body.isEmpty && !["POST", "PUT", "PATCH"].contains(method) {
            check(pokestub_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
            if method != "GET" { check(pokestub_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)) }
            return
        }
        // A body: libcurl copies it (binary-safe, the size is set first) and sends it with Content-Length.
        check(pokestub_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
        var bytes = [CChar](repeating: 0, count: max(1, request.body.count))
        request.body.withUnsafeBytes { raw in
            for (index, byte) in raw.enumerated() { bytes[index] = CChar(bitPattern: byte) }
        }
        check(pokestub_curl_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, bytes))
        if method != "POST" { check(pokestub_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)) }
    }

    /// The header list to send: the request's fields, and empty overrides that stop libcurl adding its own
    /// `Accept: */*`, form `Content-Type` and `Expect: 100-continue`.
    static func headerList(for request: UpstreamRequest) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        func append(_ line: String) {
            if let appended = curl_slist_append(list, line) { list = appended }
        }
        for field in request.headers {
            // "Name;" is how libcurl sends a field with an empty value ("Name:" would remove it).
            append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        if !request.headers.contains("Accept") { append("Accept:") }
        if !request.headers.contains("Content-Type") { append("Content-Type:") }
        append("Expect:")
        return list
    }

    /// The error for a failed transfer, with libcurl's message.
    private func error(_ code: CURLcode, url: String, transfer: CurlTransfer) -> UpstreamError {
        let detail = String(cString: errorBuffer)
        var message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let kind: UpstreamError.Kind
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            kind = .unreachable
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timedOut
        default:
            kind = .failed
            if let refusal = transfer.memoryRefusal {
                message = refusal
            } else if transfer.bodyTooLarge {
                message = "response body larger than the limit of \(configuration.maxResponseBytes) bytes"
            } else if let problem = transfer.headerProblem {
                message = "an answer pokestub cannot pass on: " + problem
            }
        }
        return UpstreamError(kind: kind, url: url, message: message, code: Int(code.rawValue))
    }
}
