// Teaches ThreadSanitizer about Swift's `Synchronization.Mutex` on Linux. scripts/sanitizers.sh builds this
// with the toolchain's clang and preloads it into thread-sanitizer test runs only; it is never part of
// pokestub.
//
// Mutex's uncontended lock and unlock are atomic compare-and-swaps inlined into the caller, which TSan sees.
// Contended ones go through `_MutexHandle._lockSlow`, `_tryLockSlow` and `_unlockSlow` in
// libswiftSynchronization.so, which is not instrumented: they spin on the futex word with their own
// compare-and-swap or hand the lock over in the kernel (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI). TSan then sees no
// happens-before edge and reports every contended critical section as a data race (two threads appending to a
// Mutex<[Int]> reproduce it). These wrappers add the edges: a release of the futex word before the slow unlock,
// an acquire after a slow lock that succeeded.
//
// The three functions take the mutex's address as Swift's `self`, which the swiftcall convention passes in
// the register clang calls `swift_context`.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

#define SWIFT __attribute__((swiftcall))
#define SELF __attribute__((swift_context))

void __tsan_acquire(void *address) __attribute__((weak));
void __tsan_release(void *address) __attribute__((weak));

static void *real(const char *name) {
    return dlsym(RTLD_NEXT, name);
}

SWIFT void lock_slow(uint32_t self_id, void *SELF handle) __asm__("$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF");
SWIFT void lock_slow(uint32_t self_id, void *SELF handle) {
    static SWIFT void (*original)(uint32_t, void *SELF);
    if (!original) original = (SWIFT void (*)(uint32_t, void *SELF))real("$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF");
    original(self_id, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

SWIFT bool try_lock_slow(void *SELF handle) __asm__("$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF");
SWIFT bool try_lock_slow(void *SELF handle) {
    static SWIFT bool (*original)(void *SELF);
    if (!original) original = (SWIFT bool (*)(void *SELF))real("$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF");
    bool locked = original(handle);
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}

SWIFT void unlock_slow(void *SELF handle) __asm__("$s15Synchronization12_MutexHandleV11_unlockSlowyyF");
SWIFT void unlock_slow(void *SELF handle) {
    static SWIFT void (*original)(void *SELF);
    if (!original) original = (SWIFT void (*)(void *SELF))real("$s15Synchronization12_MutexHandleV11_unlockSlowyyF");
    if (__tsan_release) __tsan_release(handle);
    original(handle);
}
