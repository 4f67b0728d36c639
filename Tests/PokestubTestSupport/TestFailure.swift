/// A failure of the test harness itself (a socket that would not open, a process that never said it was
/// listening), as opposed to a failed expectation about the code under test.
///
/// Its ``description`` is the whole message, so a test that throws it shows exactly that text.
package struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong, in one readable sentence; shown as the error's text.
    package var description: String

    /// Creates a failure with a message.
    ///
    /// - Parameter description: What went wrong, such as `"connect: errno 111"`.
    package init(_ description: String) { self.description = description }
}
