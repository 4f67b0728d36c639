#if canImport(Darwin)
    import Darwin

    extension HeapRelease {
        /// `malloc_zone_pressure_relief(nil, 0)`: every malloc zone returns the free memory it can
        /// (`<malloc/malloc.h>`; Apple's libmalloc, "malloc_zone_pressure_relief: Try to free memory across all
        /// zones, returning the number of bytes freed",
        /// <https://github.com/apple-oss-distributions/libmalloc/blob/main/include/malloc/malloc.h>).
        static func releaseFreeHeap() {
            _ = malloc_zone_pressure_relief(nil, 0)
        }
    }
#endif
