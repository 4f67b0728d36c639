import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A port on 127.0.0.1 that nothing listens on: bound, read back and closed again.
enum ClosedPort {
    static func make() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Int32 in
                guard bind(descriptor, raw, length) == 0 else { return -1 }
                return getsockname(descriptor, raw, &length)
            }
        }
        guard bound == 0 else { throw TestFailure("bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
