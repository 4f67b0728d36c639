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
    ///   - bodyExcerpt: The first ``bodyExcerptLimit`` bytes of the body, decoded as UTF-8
    ///     (invalid sequences replaced by U+FFFD).
    case httpStatus(url: URL, status: Int, bodyExcerpt: String)

    /// The response body did not have the expected shape.
    ///
    /// - Parameters:
    ///   - url: The URL that was requested.
    ///   - codingPath: Where in the body decoding failed, such as `results[3].url`; empty for the
    ///     root (for example when the body is not JSON at all).
    ///   - reason: What was wrong there, from the decoder.
    case decoding(url: URL, codingPath: String, reason: String)

    /// How many bytes of a response body ``httpStatus(url:status:bodyExcerpt:)`` keeps: 512.
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
        case .decoding(let url, let codingPath, let reason):
            let location = codingPath.isEmpty ? "at the root" : "at \(codingPath)"
            return "Unexpected response from \(url.absoluteString) \(location): \(reason)"
        }
    }

    /// The HTTP status code when this is an ``httpStatus(url:status:bodyExcerpt:)`` error, otherwise `nil`.
    ///
    /// Handy for telling "not found" (404) apart from other failures in a view model.
    public var httpStatusCode: Int? {
        if case .httpStatus(_, let status, _) = self { return status }
        return nil
    }
}

extension PokemonClientError {
    /// Builds an ``httpStatus(url:status:bodyExcerpt:)`` error, cutting the body to
    /// ``bodyExcerptLimit`` bytes and decoding it as lossy UTF-8.
    static func httpStatus(url: URL, status: Int, body: Data) -> PokemonClientError {
        let excerpt = String(decoding: body.prefix(bodyExcerptLimit), as: UTF8.self)
        return .httpStatus(url: url, status: status, bodyExcerpt: excerpt)
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
