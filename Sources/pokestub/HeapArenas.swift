/// How many heaps (malloc arenas) the allocator of `pokestub serve` keeps: one per core.
///
/// glibc gives each thread that allocates while the others hold their arenas an arena of its own, up to
/// eight per core (mallopt(3), `M_ARENA_MAX`: "the default value is ... 8 * number of CPU cores" on 64-bit
/// systems), and an arena keeps the memory freed into it. The daemon computes on one server thread per core
/// (libmicrohttpd's pool, `HTTPServerConfiguration/threads`), so more arenas than cores only spread the
/// same working set over more heaps: with one per core, peak RSS after the benchmark's routes at 64
/// connections was 51.1 MiB instead of 54.4 (medians of 4 starts, 2-core AMD EPYC). The small allocations
/// of the hot path do not take an arena's lock at all, they come from the thread's cache (glibc's tcache).
///
/// Set once, first thing in `serve`, before any thread starts; for this process only, so an app that runs
/// pokestub in process (`withStubServer`) keeps its own allocator settings. ``limit(to:)`` is one platform
/// file per system (`HeapArenas+Glibc.swift`, `HeapArenas+Darwin.swift`).
enum HeapArenas {
    /// Limits the arenas to `count` (at least 1), or does nothing where the allocator has no such setting.
    ///
    /// - Parameter count: The most arenas, e.g. the number of cores.
    static func limit(to count: Int) {
        limitArenas(max(1, count))
    }
}
