/// How many requests a verification or a wait expects.
///
/// ```swift
/// try await admin.verify(.exactly(1), .get("/api/v2/pokemon/"))
/// try await admin.verify(.never, .get("/api/v2/pokemon/9999/"))
/// ```
public enum RequestCount: Sendable, Hashable, CustomStringConvertible {
    /// Exactly this many.
    case exactly(Int)
    /// This many or more.
    case atLeast(Int)
    /// This many or fewer.
    case atMost(Int)

    /// None at all: `.exactly(0)`.
    public static let never = RequestCount.exactly(0)

    /// Whether a count satisfies the expectation.
    ///
    /// - Parameter count: The number of matching requests.
    /// - Returns: Whether it is as expected.
    public func isSatisfied(by count: Int) -> Bool {
        switch self {
        case .exactly(let expected): count == expected
        case .atLeast(let minimum): count >= minimum
        case .atMost(let maximum): count <= maximum
        }
    }

    /// `exactly 1 request`, `at least 2 requests`, `no requests`.
    public var description: String {
        func requests(_ number: Int) -> String { number == 1 ? "1 request" : "\(number) requests" }
        switch self {
        case .exactly(0): return "no requests"
        case .exactly(let expected): return "exactly \(requests(expected))"
        case .atLeast(let minimum): return "at least \(requests(minimum))"
        case .atMost(let maximum): return "at most \(requests(maximum))"
        }
    }
}
