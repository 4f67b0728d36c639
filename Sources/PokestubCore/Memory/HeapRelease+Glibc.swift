#if os(Linux)
    import Glibc

    extension HeapRelease {
        /// `malloc_trim(0)`: returns the free memory at the top of every arena and, since glibc 2.8, the free
        /// pages inside them (malloc_trim(3)). Looked up at run time (`RTLD_DEFAULT`, null in glibc), as `<malloc.h>` is not part of the Glibc
        /// module; a C library without it (musl) releases nothing.
        static func releaseFreeHeap() {
            _ = trim?(0)
        }

        private typealias Trim = @convention(c) (Int) -> Int32
        private static let trim: Trim? = dlsym(nil, "malloc_trim")
            .map { unsafeBitCast($0, to: Trim.self) }
    }
#endif
