import PokestubLocking

/// Gives the heap's free memory back to the system after pokestub let go of a lot of it: a large request body
/// once it is answered, a journal once it is cleared.
///
/// glibc keeps what each thread's arena freed until the arena's top passes the trim threshold, so a 7 MB
/// JSON body read on a server thread, parsed on a slow-request thread and journaled left about 16 MB
/// resident after it was freed. ``release()`` asks the allocator to return it (``releaseFreeHeap()``, one
/// platform file per system), at most every 100 ms, on the calling thread.
package enum HeapRelease {
    /// A request body at least this large (1 MiB) has the heap released once its request is done.
    package static let largeBodyBytes = 1 << 20

    private static let lastRelease = Locked<ContinuousClock.Instant?>(nil)

    /// Gives the free heap back, unless that was done less than 100 ms ago.
    ///
    /// - Parameter always: Release even so (after an admin request cleared a journal: rare, and the memory
    ///   it freed came after any earlier release).
    package static func release(always: Bool = false) {
        let now = ContinuousClock.now
        let due = lastRelease.withLock { last -> Bool in
            if !always, let last, now - last < .milliseconds(100) { return false }
            last = now
            return true
        }
        if due { releaseFreeHeap() }
    }
}
