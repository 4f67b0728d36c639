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
    private(set) var body: Data

    /// Packs a request: the buffer is sized first and filled by copying each string's UTF-8 bytes.
    init(_ request: HTTPRequest) {
        var size = 12 + request.method.utf8.count + request.rawURL.utf8.count + (request.clientAddress?.utf8.count ?? 0)
        for field in request.headers.fields { size += 8 + field.name.utf8.count + field.value.utf8.count }
        bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var offset = 0
            PackedRequest.write(request.method, into: buffer, at: &offset)
            PackedRequest.write(request.rawURL, into: buffer, at: &offset)
            if let address = request.clientAddress {
                PackedRequest.write(address, into: buffer, at: &offset)
            } else {
                PackedRequest.writeLength(UInt32.max, into: buffer, at: &offset)
            }
            for field in request.headers.fields {
                PackedRequest.write(field.name, into: buffer, at: &offset)
                PackedRequest.write(field.value, into: buffer, at: &offset)
            }
            count = offset
        }
        body = request.body
    }

    /// Takes `other` in place of this request's body when their bytes are the same, so the two share one
    /// buffer: a client that sends one body many times (a retry loop, a poll, a load test) fills the journal
    /// with one copy of it instead of one per request. Compares the bytes only when the sizes agree.
    mutating func shareBody(_ other: Data) {
        guard !body.isEmpty, body.count == other.count, body == other else { return }
        body = other
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

    private static func write(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: inout Int) {
        var text = text
        text.withUTF8 { utf8 in
            writeLength(UInt32(truncatingIfNeeded: utf8.count), into: buffer, at: &offset)
            guard let source = utf8.baseAddress, utf8.count > 0 else { return }
            (buffer.baseAddress! + offset).initialize(from: source, count: utf8.count)
            offset += utf8.count
        }
    }

    private static func writeLength(
        _ length: UInt32, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: inout Int
    ) {
        for index in 0..<4 { buffer[offset + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
        offset += 4
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
