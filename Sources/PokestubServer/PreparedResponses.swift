import CMicroHTTPD
import PokestubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libmicrohttpd responses made once for answers served again (``HTTPResponse/isServedAgain``: a stub's own
/// answer, a cached near-miss answer) and queued again for each request that gets the same answer, so such a
/// request makes no libmicrohttpd response, copies no header field and allocates nothing to answer.
///
/// One set per server thread (``current``), so looking one up takes no lock. A set holds at most
/// ``capacity`` responses, keyed by the answer's body object; a response is queued again only when the answer
/// has that very body object (still alive) and the same status and header fields, compared each time, so an
/// answer that changed (a reload, a link rewrite under new settings) gets a response of its own, and what is
/// sent stays byte for byte what ``ResponseWriter`` would make for the answer.
///
/// A prepared response points at the body's bytes without holding the body (libmicrohttpd's persistent
/// memory): the set keeps the body weakly, so a body let go by a reload is not kept alive by the set, and the
/// request that queues the response keeps its body until libmicrohttpd is done with it
/// (``RequestContext/answerBody``, released at the request's completion).
package final class PreparedResponses {
    /// The most responses one thread keeps; past it the set starts over. The shipped stubs answer from
    /// about 2,000 bodies, but a client's working set is far smaller.
    package static let capacity = 256

    private struct Entry {
        weak var body: ResponseBody?
        let status: Int
        let headers: HTTPHeaders
        let response: OpaquePointer
    }

    private var entries: [ObjectIdentifier: Entry] = [:]

    /// How many libmicrohttpd responses this set has made (for tests: a reused answer makes none).
    package private(set) var made = 0

    /// Creates an empty set (the server's threads use ``current``).
    package init() {}

    /// The libmicrohttpd response for `answer`, made now or kept from an earlier request; `nil` when the
    /// answer is not served again or is not a body in memory (a fault, a stream, a body file sent from disk,
    /// a `HEAD` answer with a declared length), or libmicrohttpd could not make it. The caller queues it and
    /// keeps `answer.body` alive until the request completes; the set keeps the response.
    package func response(for answer: HTTPResponse) -> OpaquePointer? {
        guard answer.isServedAgain, answer.fault == nil, answer.stream == nil, answer.streamedFile == nil,
            answer.headContentLength == nil
        else { return nil }
        let body = answer.body
        let key = ObjectIdentifier(body)
        if let entry = entries[key] {
            if entry.body === body && entry.status == answer.status && entry.headers == answer.headers {
                return entry.response
            }
            MHD_destroy_response(entry.response)
            entries[key] = nil
        }
        guard
            let response = MHD_create_response_from_buffer_with_free_callback_cls(
                body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), nil, nil)
        else { return nil }
        ResponseWriter.addHeaders(of: answer, to: response)
        if entries.count >= PreparedResponses.capacity { removeAll() }
        entries[key] = Entry(body: body, status: answer.status, headers: answer.headers, response: response)
        made += 1
        return response
    }

    /// Gives every response back to libmicrohttpd (those queued on a connection live until it is done).
    package func removeAll() {
        for entry in entries.values { MHD_destroy_response(entry.response) }
        entries.removeAll()
    }

    deinit { removeAll() }

    /// The calling thread's set, made on its first use and released when the thread ends.
    static var current: PreparedResponses {
        if let pointer = pthread_getspecific(threadKey) {
            return Unmanaged<PreparedResponses>.fromOpaque(pointer).takeUnretainedValue()
        }
        let set = PreparedResponses()
        pthread_setspecific(threadKey, Unmanaged.passRetained(set).toOpaque())
        return set
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { PreparedResponses.release($0) }
        precondition(result == 0, "pthread_key_create failed with \(result)")
        return key
    }()

    /// The thread-specific value's destructor (pthread_key_create(3)): releases the thread's set.
    private static func release(_ pointer: UnsafeMutableRawPointer?) {
        if let pointer { Unmanaged<PreparedResponses>.fromOpaque(pointer).release() }
    }
}
