#if os(Linux)
    import Glibc

    extension HeapArenas {
        /// `mallopt(M_ARENA_MAX, count)` (mallopt(3); `M_ARENA_MAX` is -8 in `<malloc.h>`). Looked up at run
        /// time (`RTLD_DEFAULT`, null in glibc), as `<malloc.h>` is not part of the Glibc module; a C library
        /// without it (musl, one heap for all threads) is left as it is.
        static func limitArenas(_ count: Int) {
            _ = mallopt?(-8, Int32(clamping: count))
        }

        private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        private static let mallopt: Mallopt? = dlsym(nil, "mallopt").map { unsafeBitCast($0, to: Mallopt.self) }
    }
#endif
