#if canImport(Darwin)
    extension HeapArenas {
        /// Nothing: Apple's libmalloc has no arena setting, and its zones already choose a magazine by the
        /// CPU a thread runs on, not one per thread (libmalloc's `tiny_mag_get_thread_index`, from
        /// `_os_cpu_number()`, <https://github.com/apple-oss-distributions/libmalloc/blob/main/src/magazine_inline.h>).
        static func limitArenas(_ count: Int) {}
    }
#endif
