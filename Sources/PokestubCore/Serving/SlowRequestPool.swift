import Foundation

/// Threads of pokestub's own for requests whose matching or templating outgrows a server thread's share.
///
/// libmicrohttpd runs requests on a few threads (one per core by default), so a request that computes for a
/// second holds one of them, and two such requests on a 2-core machine stop health checks and every stub for
/// everyone. ``StubEngine`` therefore answers on the server thread only what fits a small share of the
/// budgets (``StubEngine/serverThreadMatchSteps``, ``StubEngine/serverThreadTemplateSteps``); a request that
/// passes its share is suspended and served again here with the whole budget, while the server threads go on
/// answering everyone else. The work waits in a queue of at most ``queueLimit`` requests; past it the request
/// is answered at once (503).
///
/// Threads start as work arrives and end after ``idleSeconds`` without work. They are never joined: stopping the daemon answers the requests still waiting 503 after its grace
/// period (`HTTPServer.stop(gracePeriod:)`), and a computation in progress ends with the process.
///
/// `@unchecked Sendable`: the queue and the counts are read and written only with `condition` locked.
package final class SlowRequestPool: @unchecked Sendable {
    /// How many requests may wait for a thread.
    let queueLimit: Int
    private let threads: Int
    private let condition = NSCondition()
    /// The work waiting for a thread, oldest first.
    private var queue: [@Sendable () -> Void] = []
    /// How many threads have been started.
    private var started = 0
    /// How many started threads wait for work.
    private var idle = 0
    /// How many threads run work now.
    private var busy = 0

    /// Creates a pool; its threads start as work arrives.
    ///
    /// - Parameters:
    ///   - threads: The most requests computed at once (at least 1).
    ///   - queueLimit: The most requests waiting for a thread (at least 1).
    init(threads: Int, queueLimit: Int) {
        self.threads = max(1, threads)
        self.queueLimit = max(1, queueLimit)
    }

    /// How many requests are being computed now.
    package var running: Int {
        condition.lock()
        defer { condition.unlock() }
        return busy
    }

    /// How many requests wait for a thread now.
    package var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// Queues `work` for the next free thread.
    ///
    /// - Returns: `false` when ``queueLimit`` requests are waiting already; `work` is then not run.
    func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard queue.count < queueLimit else { return false }
        queue.append(work)
        condition.signal()
        if queue.count > idle && started < threads {
            started += 1
            let thread = Thread { [self] in run() }
            thread.name = "pokestub-slow-request"
            thread.start()
        }
        return true
    }

    /// Runs queued work; a thread left without work for ``idleSeconds`` ends.
    private func run() {
        while true {
            condition.lock()
            var deadline = Date(timeIntervalSinceNow: SlowRequestPool.idleSeconds)
            while queue.isEmpty {
                idle += 1
                let signalled = condition.wait(until: deadline)
                idle -= 1
                if !signalled && queue.isEmpty {
                    started -= 1
                    condition.unlock()
                    return
                }
                deadline = Date(timeIntervalSinceNow: SlowRequestPool.idleSeconds)
            }
            let work = queue.removeFirst()
            busy += 1
            condition.unlock()
            work()
            condition.lock()
            busy -= 1
            condition.unlock()
        }
    }

    /// How long a thread waits for work before it ends, in seconds.
    static let idleSeconds: TimeInterval = 10
}
