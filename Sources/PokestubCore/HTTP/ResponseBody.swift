import Foundation

/// Response body bytes held at one fixed address for as long as any response uses them.
///
/// Stub bodies are built once when stubs load and then served many times; the server hands this memory to
/// the HTTP library without copying it per request. `@unchecked Sendable`: the buffer is written only in
/// `init` and is read-only afterwards, so sharing it across threads is safe; the raw pointer is what keeps the
/// compiler from seeing that.
public final class ResponseBody: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer

    /// The number of bytes.
    public var count: Int { count_ }

    /// An empty body.
    public static let empty = ResponseBody(Data())

    /// Copies `data` into a fixed buffer.
    public init(_ data: Data) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
        data.copyBytes(to: storage)
        count_ = data.count
    }

    /// Reads a file into a fixed buffer.
    ///
    /// - Parameter path: The file.
    /// - Throws: The error of `Data(contentsOf:)` when the file cannot be read.
    public convenience init(contentsOfFile path: String) throws {
        self.init(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Copies UTF-8 text into a fixed buffer.
    public convenience init(_ text: String) {
        self.init(Data(text.utf8))
    }

    private let count_: Int

    /// The bytes as `Data` (a copy).
    public var data: Data { Data(bytes: storage.baseAddress!, count: count_) }

    /// The body as UTF-8 text (lossy), for logs and tests.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// The first address of the bytes (valid even for an empty body).
    public var baseAddress: UnsafeRawPointer { UnsafeRawPointer(storage.baseAddress!) }

    deinit {
        storage.deallocate()
    }
}
