import Foundation

/// Everything that can go wrong when configuring ``PokemonClient`` or asking a ``PokemonService``.
///
/// Each case carries enough context to act on without a debugger: the environment variable and
/// value that were rejected, or the URL that was requested and what came back. ``description``
/// renders it as one readable sentence for logs and test failures.
public enum PokemonClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A configuration value was rejected.
    ///
    /// - Parameters:
    ///   - variable: The environment variable that held it, such as `POKEMON_URL`.
    ///   - value: The value as read.
    ///   - reason: Why it was rejected.
    case invalidConfiguration(variable: String, value: String, reason: String)

    /// The request did not produce an HTTP response: no connection, a timeout, cancellation, TLS
    /// failure, and the like.
    ///
    /// - Parameters:
    ///   - url: The URL that was requested.
    ///   - underlying: A description of the underlying error (for `URLError`, its code and message).
    case transport(url: URL, underlying: String)

    /// The server answered with a status outside 200–299.
    ///
    /// PokeAPI answers 404 for an unknown id or name.
    ///
    /// - Parameters:
    ///   - url: The URL that was requested.
    ///   - status: The HTTP status code, such as 404.
    ///   - bodyExcerpt: The body decoded as UTF-8 (invalid sequences replaced by U+FFFD). A body longer
    ///     than ``bodyExcerptLimit`` bytes is cut at the last whole UTF-8 scalar within the limit and ends
    ///     with a note of what was left out: `… (cut: 510 of 2048 bytes shown)`.
    case httpStatus(url: URL, status: Int, bodyExcerpt: String)

    /// ``InMemoryPokemonService`` holds no value for what was asked; no request was made.
    ///
    /// ``httpStatusCode`` is 404 for it, what pokeapi.co answers for an unknown id or name, so code that
    /// tells "not found" apart through it behaves the same against the in-memory service and the live one.
    ///
    /// - Parameters:
    ///   - url: The URL ``PokemonClient`` would have requested.
    ///   - missing: What was asked for, such as `Pokémon with id 9999`.
    ///   - remedy: What to seed the service with, and what it holds now.
    case notInMemory(url: URL, missing: String, remedy: String)

    /// The response body did not have the expected shape.
    ///
    /// - Parameters:
    ///   - url: The URL that was requested.
    ///   - codingPath: Where in the body decoding failed, such as `results[3].url`; empty for the
    ///     root (for example when the body is not JSON at all).
    ///   - reason: What was wrong there, from the decoder.
    case decoding(url: URL, codingPath: String, reason: String)

    /// How many bytes of a response body ``httpStatus(url:status:bodyExcerpt:)`` keeps at most: 512.
    public static let bodyExcerptLimit = 512

    /// A one-sentence description of the error, naming the variable or URL involved.
    public var description: String {
        switch self {
        case .invalidConfiguration(let variable, let value, let reason):
            return "Invalid configuration: \(variable)=\"\(value)\": \(reason)"
        case .transport(let url, let underlying):
            return "Could not reach \(url.absoluteString): \(underlying)"
        case .httpStatus(let url, let status, let bodyExcerpt):
            let body = bodyExcerpt.isEmpty ? "empty body" : "body: \(bodyExcerpt)"
            return "HTTP \(status) from \(url.absoluteString) (\(body))"
        case .notInMemory(let url, let missing, let remedy):
            return "InMemoryPokemonService holds no \(missing), so it answers 404 without a request "
                + "(PokemonClient would ask \(url.absoluteString)). \(remedy)"
        case .decoding(let url, let codingPath, let reason):
            let location = codingPath.isEmpty ? "at the root" : "at \(codingPath)"
            return "Unexpected response from \(url.absoluteString) \(location): \(reason)"
        }
    }

    /// The HTTP status code when this is an ``httpStatus(url:status:bodyExcerpt:)`` error, otherwise `nil`.
    ///
    /// Handy for telling "not found" (404) apart from other failures in a view model.
    public var httpStatusCode: Int? {
        switch self {
        case .httpStatus(_, let status, _): return status
        case .notInMemory: return 404
        default: return nil
        }
    }
}

extension PokemonClientError {
    /// Builds an ``httpStatus(url:status:bodyExcerpt:)`` error, decoding the body as lossy UTF-8 and
    /// cutting a longer one to ``bodyExcerptLimit`` bytes.
    static func httpStatus(url: URL, status: Int, body: Data) -> PokemonClientError {
        .httpStatus(url: url, status: status, bodyExcerpt: excerpt(of: body))
    }

    /// `body` as lossy UTF-8, whole when it fits in ``bodyExcerptLimit`` bytes. A longer one is cut before
    /// the UTF-8 scalar that would cross the limit (a cut inside a scalar would decode to U+FFFD, RFC 3629
    /// §3: continuation bytes are `10xxxxxx`) and ends with `… (cut: N of M bytes shown)`.
    static func excerpt(of body: Data) -> String {
        let bytes = [UInt8](body)
        guard bytes.count > bodyExcerptLimit else { return String(decoding: bytes, as: UTF8.self) }
        var end = bodyExcerptLimit
        // Back over at most three continuation bytes to the scalar's first byte, which the cut leaves out.
        var back = 0
        while back < 3, end > 0, bytes[end] & 0b1100_0000 == 0b1000_0000 {
            end -= 1
            back += 1
        }
        if back == 3, bytes[end] & 0b1100_0000 == 0b1000_0000 { end = bodyExcerptLimit }  // not UTF-8: cut as is
        let shown = String(decoding: bytes[..<end], as: UTF8.self)
        return shown + "… (cut: \(end) of \(bytes.count) bytes shown)"
    }

    /// Builds a ``decoding(url:codingPath:reason:)`` error from whatever a decoder threw.
    static func decoding(url: URL, error: any Error) -> PokemonClientError {
        guard let decodingError = error as? DecodingError else {
            return .decoding(url: url, codingPath: "", reason: String(describing: error))
        }
        switch decodingError {
        case .typeMismatch(let type, let context):
            return .decoding(
                url: url,
                codingPath: codingPathString(context.codingPath),
                reason: "expected \(type): \(context.debugDescription)"
            )
        case .valueNotFound(let type, let context):
            return .decoding(
                url: url,
                codingPath: codingPathString(context.codingPath),
                reason: "expected \(type) but found null: \(context.debugDescription)"
            )
        case .keyNotFound(let key, let context):
            return .decoding(
                url: url,
                codingPath: codingPathString(context.codingPath + [key]),
                reason: "required key \"\(key.stringValue)\" is missing"
            )
        case .dataCorrupted(let context):
            return .decoding(
                url: url,
                codingPath: codingPathString(context.codingPath),
                reason: context.debugDescription
            )
        @unknown default:
            return .decoding(url: url, codingPath: "", reason: String(describing: decodingError))
        }
    }

    /// Joins a coding path the way a reader writes it: `results[3].url`.
    static func codingPathString(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                if !result.isEmpty { result += "." }
                result += key.stringValue
            }
        }
        return result
    }

    /// Describes a transport error, with the `URLError` code when there is one.
    static func transport(url: URL, error: any Error) -> PokemonClientError {
        if let urlError = error as? URLError {
            return .transport(
                url: url,
                underlying: "URLError \(urlError.code.rawValue): \(urlError.localizedDescription)"
            )
        }
        if error is CancellationError {
            return .transport(url: url, underlying: "the task was cancelled")
        }
        return .transport(url: url, underlying: String(describing: error))
    }
}
