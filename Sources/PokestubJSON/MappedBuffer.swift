import Foundation

/// A fixed-size block of memory for one ``JSONDocument``: its copy of the source bytes, its tape, its decoded
/// strings.
///
/// Blocks of 64 KiB or more are mapped with `mmap` (`MAP_ANON`, POSIX.1-2024 and both Glibc's and Darwin's
/// name; https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/mmap.2.html)
/// and unmapped with `munmap` when the buffer goes, so their pages return to the system at once and only the
/// pages written count as resident: a tape reserved for the most entries a text could need costs what the
/// parse uses. `malloc` would not do either reliably: glibc
/// raises its mmap threshold to the size of each mapped block it frees (up to 32 MiB), so after one large
/// document later ones of that size come from the heap, where freed memory stays resident.
final class MappedBuffer: @unchecked Sendable {
    /// The first byte; `size` bytes are writable.
    let base: UnsafeMutableRawPointer
    /// The bytes reserved.
    let size: Int
    private let isMapped: Bool

    /// Blocks this large or larger are mapped.
    static let mappingThreshold = 64 << 10

    /// Reserves `size` bytes (at least 16), zeroed only where written.
    init(size: Int) {
        let size = max(16, size)
        self.size = size
        if size >= MappedBuffer.mappingThreshold,
            let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, -1, 0),
            mapped != UnsafeMutableRawPointer(bitPattern: -1)
        {
            base = mapped
            isMapped = true
        } else {
            base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            isMapped = false
        }
    }

    deinit {
        if isMapped {
            munmap(base, size)
        } else {
            base.deallocate()
        }
    }
}
