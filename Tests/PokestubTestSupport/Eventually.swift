/// Waits until a condition holds, checking it every 10 ms, for at most `timeout`: how a test waits for
/// something another thread or process does, instead of sleeping and hoping it happened.
///
/// ```swift
/// try await eventually("three waits are open") { server.engine.journal.waitingCount == 3 }
/// ```
///
/// - Parameters:
///   - what: The condition in words, for the failure message.
///   - timeout: The longest wait; 10 s by default, enough for a loaded 2-core machine.
///   - condition: Checked at once, then every 10 ms.
/// - Throws: ``TestFailure`` naming `what` when the condition still does not hold after `timeout`.
package func eventually(
    _ what: String, timeout: Duration = .seconds(10), _ condition: () throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("not within \(timeout): \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
