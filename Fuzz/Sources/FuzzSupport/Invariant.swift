/// Stops the fuzzer with a message when something that must hold does not.
///
/// libFuzzer records the input that led here as a crash (`crash-<sha1>`), exactly as it records a trap in
/// the code under test: a broken invariant is a fault to turn into a regression test.
///
/// - Parameters:
///   - condition: What must hold.
///   - message: What broke, with the values that show it.
public func invariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() {
        fatalError("fuzz invariant broken: \(message())", file: file, line: line)
    }
}
