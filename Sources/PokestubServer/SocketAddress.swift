import PokestubCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address and port to bind, parsed from an IP literal (or `localhost`). Host names are
/// not resolved: a daemon should bind what it was told, not what DNS says today.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    init(host: String, port: Int) throws(HTTPServerError) {
        let literal = host == "localhost" ? "127.0.0.1" : host.trimmingCharacters(in: ["[", "]"])
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, literal, &ipv4) == 1 {
            isIPv6 = false
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
                address.pointee.sin_addr = ipv4
            }
        } else if inet_pton(AF_INET6, literal, &ipv6) == 1 {
            isIPv6 = true
            withUnsafeMutableBytes(of: &storage) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
                address.pointee.sin6_addr = ipv6
            }
        } else {
            throw HTTPServerError(
                "host \(host.debugDescription) is not an IP address (use 127.0.0.1, 0.0.0.0, ::1 or ::)")
        }
    }

    /// The TCP port a socket is bound to, or `nil`.
    static func boundPort(of descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer -> Int? in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            default: nil
            }
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer.
    mutating func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
        }
    }
}

extension String {
    func trimmingCharacters(in characters: Set<Character>) -> String {
        var text = Substring(self)
        while let first = text.first, characters.contains(first) { text = text.dropFirst() }
        while let last = text.last, characters.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
