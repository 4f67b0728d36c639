import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response body sent straight from an open file instead of from memory: a body file of
/// ``BodyFile/streamingThreshold`` bytes or more.
///
/// The server hands the descriptor to libmicrohttpd (`MHD_create_response_from_fd64`), which sends the file
/// with `sendfile(2)` where it can and closes the descriptor when the response is done, so a body of any size
/// costs a descriptor and a few pages, not its size in memory. A response that is never sent (its request
/// was refused or its client went away first) closes the descriptor when the last copy of it goes.
package final class StreamedFile: Sendable {
    /// The number of bytes to send, from the file's size when it was opened.
    package let size: Int
    /// The open descriptor, or -1 once handed over.
    private let descriptor: Locked<Int32>

    /// Takes ownership of an open, readable descriptor of a regular file of `size` bytes.
    init(descriptor: Int32, size: Int) {
        self.size = size
        self.descriptor = Locked(descriptor)
    }

    /// Hands the descriptor over to whoever sends the body, who then closes it; `nil` when it was handed over
    /// already (one file, one response).
    package func takeDescriptor() -> Int32? {
        descriptor.withLock { descriptor in
            defer { descriptor = -1 }
            return descriptor >= 0 ? descriptor : nil
        }
    }

    deinit {
        if let descriptor = takeDescriptor() { close(descriptor) }
    }
}
