import PokestubLocking

/// A gate that tasks wait at until a test opens it: how a test holds a closure route's handler mid-request
/// without sleeping.
final class AsyncGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Whether a task is waiting at the gate.
    var isWaiting: Bool { state.withLock { !$0.waiters.isEmpty } }

    /// Waits until ``open()``; returns at once when the gate is open already.
    func wait() async throws {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Opens the gate for good, letting every waiting task go on.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
