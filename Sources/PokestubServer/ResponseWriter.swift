import CMicroHTTPD
import Foundation
import PokestubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns an ``HTTPResponse`` into a libmicrohttpd response without copying the body.
enum ResponseWriter {
    /// Headers libmicrohttpd writes itself from the body and the connection; a stub's own would conflict.
    private static let managedHeaders: [[UInt8]] = ["content-length", "transfer-encoding", "connection"].map {
        Array($0.utf8)
    }

    /// Whether a field name is one of ``managedHeaders``, compared ASCII case-insensitively (RFC 9110 §5.1)
    /// on the bytes: this runs for every header field of every answer.
    private static func isManaged(_ name: String) -> Bool {
        let utf8 = name.utf8
        return managedHeaders.contains { (managed: [UInt8]) -> Bool in
            managed.count == utf8.count
                && zip(managed, utf8).allSatisfy { (lower: UInt8, byte: UInt8) -> Bool in
                    lower == ((byte >= 65 && byte <= 90) ? byte + 32 : byte)
                }
        }
    }

    /// Queues the response on the connection, or carries out its fault.
    ///
    /// An answer served again (``HTTPResponse/isServedAgain``) queued for a request (`context`) goes out as
    /// the thread's prepared libmicrohttpd response for it (``PreparedResponses``), the same bytes; the
    /// request keeps the answer's body until it completes, since the prepared response does not.
    ///
    /// - Parameters:
    ///   - response: The answer.
    ///   - connection: The request's connection.
    ///   - context: The request's context, to keep a prepared response's body alive; `nil` makes the
    ///     response for this request alone.
    static func queue(
        _ response: HTTPResponse, on connection: OpaquePointer, for context: RequestContext? = nil
    ) -> MHD_Result {
        if let context, let prepared = PreparedResponses.current.response(for: response) {
            context.answerBody = response.body
            return MHD_queue_response(connection, UInt32(response.status), prepared)
        }
        if let fault = response.fault {
            if fault == .connectionResetByPeer {
                let socket = pokestub_mhd_connection_fd(connection)
                if socket >= 0 {
                    var lingering = linger(l_onoff: 1, l_linger: 0)
                    setsockopt(socket, SOL_SOCKET, SO_LINGER, &lingering, socklen_t(MemoryLayout<linger>.size))
                }
            }
            return MHD_Result.NO
        }
        guard let mhdResponse = makeResponse(response) else { return MHD_Result.NO }
        addHeaders(of: response, to: mhdResponse)
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    /// Adds the answer's header fields to a libmicrohttpd response, but for those libmicrohttpd writes itself
    /// (``managedHeaders``).
    static func addHeaders(of response: HTTPResponse, to mhdResponse: OpaquePointer) {
        for field in response.headers where !isManaged(field.name) {
            // Refused values (a CR or LF inside) are dropped rather than sent broken. `withCString` lends a
            // native string's own bytes; an implicit conversion would copy each into a new array.
            field.name.withCString { name in
                field.value.withCString { value in _ = MHD_add_response_header(mhdResponse, name, value) }
            }
        }
    }

    /// The libmicrohttpd response for the body: an open file (``HTTPResponse/streamedFile``), the body's
    /// bytes, or for an answer to `HEAD` that declares a
    /// length of its own (``HTTPResponse/headContentLength``), a response of that size whose reader is never
    /// called: libmicrohttpd sends a `HEAD` answer's `Content-Length` from the response size and no body.
    private static func makeResponse(_ response: HTTPResponse) -> OpaquePointer? {
        if let stream = response.stream {
            let cursor = Unmanaged.passRetained(StreamCursor(stream)).toOpaque()
            guard
                let mhdResponse = MHD_create_response_from_callback(
                    UInt64.max, 64 << 10, ResponseWriter.readStream, cursor, ResponseWriter.releaseStream)
            else {
                Unmanaged<StreamCursor>.fromOpaque(cursor).release()
                return nil
            }
            return mhdResponse
        }
        if let file = response.streamedFile {
            // libmicrohttpd owns the descriptor from here and closes it with the response.
            guard let descriptor = file.takeDescriptor() else { return nil }
            guard let mhdResponse = MHD_create_response_from_fd64(UInt64(file.size), descriptor) else {
                close(descriptor)
                return nil
            }
            return mhdResponse
        }
        let body = response.body
        if body.count == 0, let length = response.headContentLength, length > 0 {
            return MHD_create_response_from_callback(UInt64(length), 4096, ResponseWriter.noBody, nil, nil)
        }
        let retained = Unmanaged.passRetained(body).toOpaque()
        guard
            let mhdResponse = MHD_create_response_from_buffer_with_free_callback_cls(
                body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), ResponseWriter.releaseBody, retained)
        else {
            Unmanaged<ResponseBody>.fromOpaque(retained).release()
            return nil
        }
        return mhdResponse
    }

    /// The reader of a `HEAD` answer's body, which has none: were it ever asked, it ends the response with an
    /// error (`MHD_CONTENT_READER_END_WITH_ERROR`), which closes the connection rather than send made-up bytes.
    private static let noBody: MHD_ContentReaderCallback = { _, _, _, _ in -2 }

    /// Where a streamed body is: the piece being sent and how much of it has gone.
    private final class StreamCursor {
        let stream: ResponseStream
        var piece = Data()
        var offset = 0

        init(_ stream: ResponseStream) { self.stream = stream }
    }

    /// libmicrohttpd's reader for a streamed body (`MHD_SIZE_UNKNOWN`, so sent chunked): copies as much of
    /// the current piece as fits, takes the next piece when it is used up, and ends the stream
    /// (`MHD_CONTENT_READER_END_OF_STREAM`, -1) after the last.
    private static let readStream: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return -2 }
        let cursor = Unmanaged<StreamCursor>.fromOpaque(context).takeUnretainedValue()
        while cursor.offset >= cursor.piece.count {
            guard let next = cursor.stream.next() else { return -1 }
            cursor.piece = next
            cursor.offset = 0
        }
        let count = min(capacity, cursor.piece.count - cursor.offset)
        cursor.piece.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(
                from: bytes.baseAddress! + cursor.offset, byteCount: count)
        }
        cursor.offset += count
        return count
    }

    private static let releaseStream: MHD_ContentReaderFreeCallback = { context in
        if let context { Unmanaged<StreamCursor>.fromOpaque(context).release() }
    }

    /// libmicrohttpd calls this when it no longer needs the body bytes.
    private static let releaseBody: MHD_ContentReaderFreeCallback = { context in
        if let context { Unmanaged<ResponseBody>.fromOpaque(context).release() }
    }
}
