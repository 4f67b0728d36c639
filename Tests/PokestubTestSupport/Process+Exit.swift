import Foundation
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a child process has exited, asked of the kernel as well as of Foundation.
///
/// Foundation learns that a child exited when a socket the child inherited reaches end of file. When tests
/// start processes at the same moment, a sibling started in between can inherit that socket too, and then
/// Foundation hears of the exit only once the sibling exits: `isRunning` stays `true` and `waitUntilExit()`
/// spins for ever. (Seen: a whole test run stuck for 15 minutes on an upstream script that had been killed
/// and was a zombie nobody reaped.) These helpers ask `waitpid(2)` with `WNOHANG` too, and reap the child
/// themselves when Foundation has not.
extension Process {
    /// Exit statuses of children reaped here (Foundation no longer knows them), by process object: not by
    /// process id, which the kernel hands out again soon on a busy machine (`pid_max` is 32,768 here).
    private static let reaped = Locked<[ObjectIdentifier: ReapedChild]>([:])

    /// A reaped child's status, with a weak reference that tells a reused object address from the original.
    private struct ReapedChild: @unchecked Sendable {
        weak var process: Process?
        var status: Int32
    }

    /// The exit status (or the number of the signal that ended it) once the process has exited; `nil` while
    /// it runs; -1 in the rare case that Foundation reaped it but never said so within a second.
    package var exitStatus: Int32? {
        if !isRunning { return terminationStatus }
        let pid = processIdentifier
        let key = ObjectIdentifier(self)
        if let child = Process.reaped.withLock({ $0[key] }), child.process === self { return child.status }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        if result == pid {
            // WIFEXITED: the low 7 bits are 0; then WEXITSTATUS is the next byte, else WTERMSIG the low bits.
            let status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
            Process.reaped.withLock { reaped in
                reaped = reaped.filter { $0.value.process != nil }
                reaped[key] = ReapedChild(process: self, status: status)
            }
            return status
        }
        if result == -1 && errno == ECHILD {
            // Foundation reaped it just now and is about to say so; `terminationStatus` traps until it has.
            for _ in 0..<1_000 where isRunning { usleep(1_000) }
            return isRunning ? -1 : terminationStatus
        }
        return nil
    }

    /// Waits until the process exits, at most `timeout`, without holding a thread.
    ///
    /// - Returns: The exit status (or signal number), or `nil` when it was still running at the deadline.
    package func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = exitStatus { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return exitStatus
    }

    /// Sends `SIGKILL` and waits until the process is gone, at most `timeout`, blocking the calling thread
    /// (for `deinit` and `defer`, where nothing can be awaited).
    ///
    /// - Returns: Whether it is gone.
    @discardableResult
    package func killAndReap(timeout: Duration = .seconds(10)) -> Bool {
        guard exitStatus == nil else { return true }
        kill(processIdentifier, SIGKILL)
        let deadline = ContinuousClock.now + timeout
        while exitStatus == nil && ContinuousClock.now < deadline { usleep(5_000) }
        return exitStatus != nil
    }
}
