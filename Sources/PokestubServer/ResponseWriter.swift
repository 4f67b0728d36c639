import CMicroHTTPD
import PokestubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns an ``HTTPResponse`` into a libmicrohttpd response without copying the body.
enum ResponseWriter {
    /// Headers libmicrohttpd writes itself from the body and the connection; a stub's own would conflict.
    private static let managedHeaders: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// Queues the response on the connection, or carries out its fault.
    static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
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
        let body = response.body
        let retained = Unmanaged.passRetained(body).toOpaque()
        guard
            let mhdResponse = MHD_create_response_from_buffer_with_free_callback_cls(
                body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), ResponseWriter.releaseBody, retained)
        else {
            Unmanaged<ResponseBody>.fromOpaque(retained).release()
            return MHD_Result.NO
        }
        for field in response.headers where !managedHeaders.contains(field.name.lowercased()) {
            // Refused values (a CR or LF inside) are dropped rather than sent broken.
            _ = MHD_add_response_header(mhdResponse, field.name, field.value)
        }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    /// libmicrohttpd calls this when it no longer needs the body bytes.
    private static let releaseBody: MHD_ContentReaderFreeCallback = { context in
        if let context { Unmanaged<ResponseBody>.fromOpaque(context).release() }
    }
}
