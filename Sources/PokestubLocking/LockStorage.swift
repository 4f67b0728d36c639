#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one allocation behind a ``Locked``: the value as the buffer's header and the `pthread_mutex_t` as its
/// single tail-allocated element, whose address is stable for the object's lifetime (a POSIX mutex must not
/// move once initialized; pthread_mutex_init(3)).
@usableFromInline
final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    /// Allocates the storage and initializes its mutex (error-checking in debug builds, see ``Locked``).
    @usableFromInline
    static func make(holding value: Value) -> LockStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: LockStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            #if DEBUG
                pthread_mutexattr_settype(&attributes, .init(PTHREAD_MUTEX_ERRORCHECK))
            #endif
            let result = pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(result == 0, "pthread_mutex_init failed with \(result)")
        }
        return storage
    }

    /// pthread_mutex_lock(3); a failure (`EDEADLK`: this thread holds it already) is a programming error.
    @inlinable
    func lock() {
        let result = withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
        precondition(result == 0, "pthread_mutex_lock failed with \(result) (is the lock taken again inside withLock?)")
    }

    /// pthread_mutex_unlock(3).
    @inlinable
    func unlock() {
        let result = withUnsafeMutablePointerToElements { pthread_mutex_unlock($0) }
        precondition(result == 0, "pthread_mutex_unlock failed with \(result)")
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
}
