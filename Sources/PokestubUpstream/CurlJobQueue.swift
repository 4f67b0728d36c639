import Dispatch
import PokestubCore
import PokestubLocking

/// One queued exchange.
struct CurlJob: Sendable {
    let request: UpstreamRequest
    let completion: @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void
}

/// The workers' queue: a `Locked` list and a semaphore counting what is in it.
final class CurlJobQueue: Sendable {
    private let state = Locked((jobs: [CurlJob](), closed: false))
    private let available = DispatchSemaphore(value: 0)

    /// Queues a job; `false` when the queue is closed.
    func push(_ job: CurlJob) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Waits for a job; `nil` once the queue is closed.
    func pop() -> CurlJob? {
        while true {
            available.wait()
            let (job, closed): (CurlJob?, Bool) = state.withLock { state in
                if state.closed { return (nil, true) }
                return (state.jobs.isEmpty ? nil : state.jobs.removeFirst(), false)
            }
            if closed { return nil }
            if let job { return job }
        }
    }

    /// Closes the queue, wakes the waiting workers, and returns the jobs nobody took.
    ///
    /// - Parameter wakeups: The number of workers that may be waiting.
    func close(wakeups: Int) -> [CurlJob] {
        let (jobs, wasClosed) = state.withLock { state in
            defer {
                state.jobs = []
                state.closed = true
            }
            return (state.jobs, state.closed)
        }
        guard !wasClosed else { return jobs }
        // One wake-up per worker: each sees the queue closed and stops waiting.
        for _ in 0..<wakeups { available.signal() }
        return jobs
    }
}
