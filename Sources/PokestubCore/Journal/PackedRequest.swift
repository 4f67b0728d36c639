import Foundation

/// A request as the request journal keeps it: the method, the target as received, the peer address and the
/// header fields in one byte buffer (one allocation), and the body already in hand (not copied).
///
/// The fields parsed from the target (path, query parameters) are not kept: ``request`` parses them again
/// when the admin API asks, so keeping a request costs one allocation and about its wire size, and dropping
/// it one `free`.
///
/// Layout of ``bytes``: each string as its UTF-8 length (a 4-byte little-endian count) then its bytes, in
/// the order method, target, peer address (length `UInt32.max` for none), then each header field's name
/// and value.
struct PackedRequest: Sendable {
    private let bytes: [UInt8]
    /// The body bytes.
    let body: Data

    /// Packs a request.
    init(_ request: HTTPRequest) {
        var size = 12 + request.method.utf8.count + request.rawURL.utf8.count + (request.clientAddress?.utf8.count ?? 0)
        for field in request.headers.fields { size += 8 + field.name.utf8.count + field.value.utf8.count }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        PackedRequest.append(request.method, to: &bytes)
        PackedRequest.append(request.rawURL, to: &bytes)
        if let address = request.clientAddress {
            PackedRequest.append(address, to: &bytes)
        } else {
            PackedRequest.appendLength(UInt32.max, to: &bytes)
        }
        for field in request.headers.fields {
            PackedRequest.append(field.name, to: &bytes)
            PackedRequest.append(field.value, to: &bytes)
        }
        self.bytes = bytes
        body = request.body
    }

    /// The request, parsed again from what was kept: equal (``HTTPRequest/==``) to the one packed.
    var request: HTTPRequest {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            let method = PackedRequest.string(in: buffer, at: &offset) ?? ""
            let rawURL = PackedRequest.string(in: buffer, at: &offset) ?? "/"
            let address = PackedRequest.string(in: buffer, at: &offset)
            var fields: [(name: String, value: String)] = []
            while offset < buffer.count, let name = PackedRequest.string(in: buffer, at: &offset) {
                fields.append((name: name, value: PackedRequest.string(in: buffer, at: &offset) ?? ""))
            }
            return HTTPRequest(
                method: method, rawURL: rawURL, headers: HTTPHeaders(fields), body: body, clientAddress: address)
        }
    }

    /// The bytes this record holds: the buffer and the body.
    var byteCount: Int { bytes.count + body.count }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            appendLength(UInt32(truncatingIfNeeded: utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    private static func appendLength(_ length: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: length.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The string at `offset`, moving `offset` past it; `nil` for the "none" length.
    private static func string(in buffer: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> String? {
        guard offset + 4 <= buffer.count else { return nil }
        var length: UInt32 = 0
        for index in 0..<4 { length |= UInt32(buffer[offset + index]) << (8 * index) }
        offset += 4
        guard length != UInt32.max else { return nil }
        let end = min(buffer.count, offset + Int(length))
        defer { offset = end }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<end]), as: UTF8.self)
    }
}
