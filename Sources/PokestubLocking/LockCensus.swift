#if DEBUG
    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Counts every ``Locked`` acquisition on each thread, in debug builds only: how many locks a request
    /// takes on its way through the daemon, and whether any is taken while the same thread holds another.
    ///
    /// Each thread keeps its own tally (thread-specific data, pthread_getspecific(3)): a count of every
    /// ``Locked/withLock(_:fileID:line:)`` since the thread's first, and the last ``logCapacity`` acquisitions
    /// with their call sites and how many other `Locked` the thread held at each. A tally has a mutex of its own,
    /// taken by its thread to count and by a reader to read, so reading another thread's tally is no data
    /// race; no lock is shared by all threads, so counting adds no ordering between threads that the thread
    /// sanitizer would then miss. Release builds have none of this: the type does not exist, and
    /// ``Locked/withLock(_:fileID:line:)`` ignores its call site.
    ///
    /// A test learns the thread a request ran on (``currentThread``, read by a handler in front of the
    /// engine), reads ``acquisitions(onThread:)`` at one request and at the next, and the acquisitions in
    /// between with ``acquisitions(onThread:in:)``:
    ///
    /// ```swift
    /// let thread = LockCensus.currentThread
    /// let before = LockCensus.acquisitions(onThread: thread)
    /// // … the work to count, on that thread …
    /// let taken = LockCensus.acquisitions(onThread: thread, in: before..<LockCensus.acquisitions(onThread: thread))
    /// ```
    package enum LockCensus {
        /// How many of a thread's latest acquisitions its tally keeps.
        package static let logCapacity = 256

        /// One acquisition of a ``Locked``.
        package struct Acquisition: Sendable, Equatable, CustomStringConvertible {
            /// The call site's file, as `#fileID` names it: `PokestubCore/RequestJournal.swift`.
            package let fileID: String
            /// The call site's line.
            package let line: Int
            /// How many other `Locked` the thread held when it took this one: 0 unless the acquisition is
            /// nested.
            package let held: Int

            /// `PokestubCore/RequestJournal.swift:120`, with `(nested in 1)` when ``held`` is not 0.
            package var description: String {
                "\(fileID):\(line)" + (held > 0 ? " (nested in \(held))" : "")
            }
        }

        /// The number of the calling thread's tally: 1 for the first thread that took a ``Locked`` or asked,
        /// then 2, and so on; a number is never reused.
        package static var currentThread: Int { Tally.current.number }

        /// How many ``Locked`` the thread numbered `thread` has taken so far; 0 for a thread with no tally
        /// (none numbered so, or one that has ended).
        package static func acquisitions(onThread thread: Int) -> Int {
            guard let tally = Registry.shared.tally(thread) else { return 0 }
            return tally.read { tally in tally.count }
        }

        /// The thread's acquisitions numbered `range` (counted from 0, as ``acquisitions(onThread:)`` counts),
        /// oldest first; `nil` when its tally no longer holds them all (more than ``logCapacity`` were taken
        /// since the first) or the thread has none.
        package static func acquisitions(onThread thread: Int, in range: Range<Int>) -> [Acquisition]? {
            guard let tally = Registry.shared.tally(thread) else { return nil }
            return tally.read { tally -> [Acquisition]? in
                guard range.lowerBound >= 0, range.upperBound <= tally.count,
                    tally.count - range.lowerBound <= logCapacity
                else { return nil }
                return range.map { index in
                    let entry = tally.log[index % logCapacity]
                    return Acquisition(
                        fileID: entry.fileID.description, line: Int(entry.line), held: entry.held)
                }
            }
        }

        /// Counts an acquisition by the calling thread at `fileID`:`line`, about to take its lock; returns the
        /// tally, whose ``Tally/released()`` the caller calls once the lock is released.
        @usableFromInline
        static func willAcquire(fileID: StaticString, line: UInt) -> Tally {
            let tally = Tally.current
            let held = tally.depth
            tally.read { tally in
                tally.log[tally.count % logCapacity] = Tally.Entry(fileID: fileID, line: line, held: held)
                tally.count += 1
            }
            tally.depth += 1
            return tally
        }

        /// One thread's counts. `@unchecked Sendable`: ``count`` and ``log`` are read and written only under
        /// ``mutex``; ``depth`` only by the tally's own thread.
        @usableFromInline
        final class Tally: @unchecked Sendable {
            struct Entry {
                var fileID: StaticString
                var line: UInt
                var held: Int
            }

            let number: Int
            /// `Locked` the owning thread holds now; touched by that thread alone.
            var depth = 0
            var count = 0
            var log: [Entry]
            private let mutex: UnsafeMutablePointer<pthread_mutex_t>

            init(number: Int) {
                self.number = number
                log = Array(repeating: Entry(fileID: "", line: 0, held: 0), count: LockCensus.logCapacity)
                mutex = .allocate(capacity: 1)
                pthread_mutex_init(mutex, nil)
            }

            deinit {
                pthread_mutex_destroy(mutex)
                mutex.deallocate()
            }

            /// Runs `body` under the tally's mutex.
            func read<T>(_ body: (Tally) -> T) -> T {
                pthread_mutex_lock(mutex)
                defer { pthread_mutex_unlock(mutex) }
                return body(self)
            }

            /// The lock counted last is released.
            @usableFromInline
            func released() {
                depth -= 1
            }

            /// The calling thread's tally, made and registered on its first use.
            static var current: Tally {
                if let pointer = pthread_getspecific(Registry.shared.key) {
                    return Unmanaged<Tally>.fromOpaque(pointer).takeUnretainedValue()
                }
                let tally = Registry.shared.register()
                pthread_setspecific(Registry.shared.key, Unmanaged.passRetained(tally).toOpaque())
                return tally
            }
        }

        /// Every living thread's tally by number, and the thread-specific key that finds the calling thread's.
        /// `@unchecked Sendable`: ``tallies`` and ``lastNumber`` are touched only under ``mutex``.
        final class Registry: @unchecked Sendable {
            static let shared = Registry()

            let key: pthread_key_t
            private let mutex: UnsafeMutablePointer<pthread_mutex_t>
            private var tallies: [Int: Tally] = [:]
            private var lastNumber = 0

            private init() {
                mutex = .allocate(capacity: 1)
                pthread_mutex_init(mutex, nil)
                var key = pthread_key_t()
                pthread_key_create(&key, Registry.threadEnded)
                self.key = key
            }

            func register() -> Tally {
                pthread_mutex_lock(mutex)
                defer { pthread_mutex_unlock(mutex) }
                lastNumber += 1
                let tally = Tally(number: lastNumber)
                tallies[lastNumber] = tally
                return tally
            }

            func tally(_ number: Int) -> Tally? {
                pthread_mutex_lock(mutex)
                defer { pthread_mutex_unlock(mutex) }
                return tallies[number]
            }

            func forget(_ number: Int) {
                pthread_mutex_lock(mutex)
                defer { pthread_mutex_unlock(mutex) }
                tallies[number] = nil
            }

            /// The key's destructor: a thread that ends takes its tally with it.
            #if canImport(Darwin)
                private static let threadEnded: @convention(c) (UnsafeMutableRawPointer) -> Void = { pointer in
                    let tally = Unmanaged<Tally>.fromOpaque(pointer).takeRetainedValue()
                    Registry.shared.forget(tally.number)
                }
            #else
                private static let threadEnded: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
                    guard let pointer else { return }
                    let tally = Unmanaged<Tally>.fromOpaque(pointer).takeRetainedValue()
                    Registry.shared.forget(tally.number)
                }
            #endif
        }
    }
#endif
