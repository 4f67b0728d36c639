import CMicroHTTPD
import PokestubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads what libmicrohttpd parsed about a connection's current request.
enum ConnectionReader {
    /// The request's header fields in the order received, each name and value whole: with their sizes, so a
    /// NUL inside a value is kept for ``RequestFraming`` to refuse instead of ending the value early.
    static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var fields: [(name: String, value: String)] = []
        // Room for a client's usual few fields in one allocation.
        fields.reserveCapacity(8)
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, collectHeader, pointer)
        }
        return HTTPHeaders(fields)
    }

    private static let collectHeader: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
        guard let context, let key else { return MHD_Result.YES }
        let fields = context.assumingMemoryBound(to: [(name: String, value: String)].self)
        fields.pointee.append((name: text(key, keySize), value: value.map { text($0, valueSize) } ?? ""))
        return MHD_Result.YES
    }

    /// `size` bytes at `start` as text; bytes that are not UTF-8 become U+FFFD, as `String(cString:)` makes them.
    private static func text(_ start: UnsafePointer<CChar>, _ size: Int) -> String {
        start.withMemoryRebound(to: UInt8.self, capacity: size) {
            String(decoding: UnsafeBufferPointer(start: $0, count: size), as: UTF8.self)
        }
    }

    /// The peer's IP address as text, e.g. `127.0.0.1`.
    static func clientAddress(of connection: OpaquePointer) -> String? {
        guard let address = pokestub_mhd_client_address(connection) else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var raw = ipv4.pointee.sin_addr
                guard inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)) != nil else { return nil }
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var raw = ipv6.pointee.sin6_addr
                guard inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil else { return nil }
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        default:
            return nil
        }
    }
}
