import Foundation

/// Everything that can go wrong when talking to the pokestub admin API, a failed verification included.
///
/// ``description`` reads as one sentence in a test log, naming the request and the server's reason:
///
/// ```
/// pokestub refused POST http://127.0.0.1:8080/__admin/mappings (HTTP 400): Invalid stub mapping:
/// request.urlPath: must be a string, not number
/// ```
public enum PokestubClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A configuration value was rejected.
    ///
    /// - Parameters:
    ///   - variable: The environment variable that held it (`POKEMON_URL`), or `baseURL` for an explicit URL.
    ///   - value: The value as read.
    ///   - reason: Why it was rejected.
    case invalidConfiguration(variable: String, value: String, reason: String)

    /// The request produced no HTTP response: nothing listening, a timeout, a reset connection.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: The admin URL requested.
    ///   - underlying: The underlying error, described.
    case transport(method: String, url: URL, underlying: String)

    /// The server answered with a status outside 200–299.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: The admin URL requested.
    ///   - status: The HTTP status, e.g. 400 or 404 (404 also when the server does not have the operation).
    ///   - errors: The reasons from the JSON body (`{"errors": [{"title", "detail"}]}`); when the body has
    ///     another shape, one entry whose title is its first 512 bytes.
    case refused(method: String, url: URL, status: Int, errors: [AdminErrorDetail])

    /// The admin API wants a bearer token (HTTP 401): none was sent, or the one sent is not the daemon's
    /// `adminToken`.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: The admin URL requested.
    ///   - tokenSent: Whether the client sent a token (then the server refused it).
    ///   - errors: The server's reasons, e.g. `Admin token required`.
    case unauthorized(method: String, url: URL, tokenSent: Bool, errors: [AdminErrorDetail])

    /// The server answered 2xx with a body this client could not read.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: The admin URL requested.
    ///   - reason: What was wrong.
    case unexpectedResponse(method: String, url: URL, reason: String)

    /// JSON given to or produced by this client was not valid.
    ///
    /// - Parameters:
    ///   - what: What was being read, e.g. `a stub mapping`.
    ///   - reason: What was wrong, with the position or coding path when known.
    case invalidJSON(what: String, reason: String)

    /// The journal did not hold the expected number of matching requests
    /// (``PokestubAdminClient/verify(_:_:file:line:)``); the failure lists what the server did receive.
    ///
    /// - Parameter failure: The expected and actual counts, the requests received, and how the closest ones
    ///   differ from the pattern.
    case verificationFailed(VerificationFailure)

    /// A wait for requests ended before enough arrived
    /// (``PokestubAdminClient/waitForRequests(_:_:timeout:pollInterval:file:line:)``).
    ///
    /// - Parameters:
    ///   - expected: How many requests were awaited.
    ///   - pattern: The request pattern, in words.
    ///   - actualCount: How many had matched when the wait ended.
    ///   - timeout: How long the wait lasted.
    ///   - closest: The journaled requests closest to the pattern that did not match it, closest first, with
    ///     the server's differences (`method: expected "GET", got "POST"`); empty when the server gave none.
    ///   - callSite: Where the wait was called, which the description starts with (Swift Testing and XCTest
    ///     list a thrown error at the test function); `nil` when not known.
    case timedOut(
        expected: RequestCount, pattern: String, actualCount: Int, timeout: Duration,
        closest: [VerificationFailure.ClosestRequest] = [], callSite: CallSite? = nil)

    /// The error as one readable sentence.
    public var description: String {
        switch self {
        case .invalidConfiguration(let variable, let value, let reason):
            return "Invalid configuration: \(variable)=\"\(value)\": \(reason)"
        case .transport(let method, let url, let underlying):
            return "Could not reach pokestub for \(method) \(url.absoluteString): \(underlying)"
        case .refused(let method, let url, let status, let errors):
            let reasons = errors.map(\.description).joined(separator: "; ")
            return "pokestub refused \(method) \(url.absoluteString) (HTTP \(status))"
                + (reasons.isEmpty ? "" : ": \(reasons)")
        case .unauthorized(let method, let url, let tokenSent, let errors):
            let advice =
                tokenSent
                ? "the admin token was refused; set \(PokestubAdminClient.tokenEnvironmentVariable) to the daemon's adminToken"
                : "the admin API needs a token; set \(PokestubAdminClient.tokenEnvironmentVariable) to the daemon's "
                    + "adminToken, or pass token: to PokestubAdminClient(baseURL:token:)"
            let reasons = errors.map(\.description).joined(separator: "; ")
            return "pokestub refused \(method) \(url.absoluteString) (HTTP 401): \(advice)"
                + (reasons.isEmpty ? "" : " (server: \(reasons))")
        case .unexpectedResponse(let method, let url, let reason):
            return "Unexpected answer from pokestub to \(method) \(url.absoluteString): \(reason)"
        case .invalidJSON(let what, let reason):
            return "Invalid JSON in \(what): \(reason)"
        case .verificationFailed(let failure):
            return failure.description
        case .timedOut(let expected, let pattern, let actualCount, let timeout, let closest, let callSite):
            let summary = "after \(timeout) waiting for \(expected) matching \(pattern); \(actualCount) matched"
            var lines = [callSite.map { "\($0): timed out \(summary)" } ?? "Timed out \(summary)"]
            if !closest.isEmpty {
                lines += ["", "Closest requests:"]
                for entry in closest {
                    lines.append("  \(entry.request)")
                    lines += entry.differences.map { "    \($0)" }
                }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// This error with `callSite` as where the wait was called, when it is a timeout
    /// (``timedOut(expected:pattern:actualCount:timeout:closest:callSite:)``); any other error as it is. The
    /// waits that name their caller use it.
    func calledAt(_ callSite: CallSite) -> PokestubClientError {
        guard case .timedOut(let expected, let pattern, let actualCount, let timeout, let closest, _) = self else {
            return self
        }
        return .timedOut(
            expected: expected, pattern: pattern, actualCount: actualCount, timeout: timeout, closest: closest,
            callSite: callSite)
    }

    /// The HTTP status when this is ``refused(method:url:status:errors:)`` (or 401 for
    /// ``unauthorized(method:url:tokenSent:errors:)``), otherwise `nil`.
    public var httpStatus: Int? {
        switch self {
        case .refused(_, _, let status, _): return status
        case .unauthorized: return 401
        default: return nil
        }
    }
}
