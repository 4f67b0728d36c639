import Foundation
import Testing

@testable import PokestubUpstream

/// A proxied answer shares the received body's bytes for as long as the journal keeps it, and the journal's
/// memory budget counts the body's size: only a body that filled exactly the room `Content-Length` reserved
/// is kept as received; one that grew as it arrived is copied into a buffer of its size.
@Suite("The body libcurl received, as it is kept")
struct CurlTransferBodyTests {
    private func received(_ count: Int, contentLength: Int?) -> (transfer: CurlTransfer, kept: Data) {
        let transfer = CurlTransfer(maxBodyBytes: 1 << 20)
        if let contentLength { transfer.addHeaderLine(Array("Content-Length: \(contentLength)".utf8)) }
        let bytes = [UInt8](repeating: 0x61, count: count)
        for start in stride(from: 0, to: count, by: 1_000) {
            transfer.body.append(contentsOf: bytes[start..<min(count, start + 1_000)])
        }
        return (transfer, transfer.keptBody())
    }

    private func address(_ data: Data) -> UInt { data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } }

    @Test("a body that filled what Content-Length reserved is kept as received")
    func exactBodyIsKept() {
        let (transfer, kept) = received(20_000, contentLength: 20_000)
        #expect(kept == transfer.body)
        #expect(address(kept) == address(transfer.body))
    }

    @Test("a body without Content-Length, or longer than it said (decoded), is copied", arguments: [nil, 5_000])
    func grownBodyIsCopied(contentLength: Int?) {
        let (transfer, kept) = received(20_000, contentLength: contentLength)
        #expect(kept == transfer.body)
        #expect(address(kept) != address(transfer.body))
    }

    @Test("a small body is kept as received whatever its header said")
    func smallBodyIsKept() {
        let (transfer, kept) = received(3_000, contentLength: nil)
        #expect(address(kept) == address(transfer.body))
    }
}
