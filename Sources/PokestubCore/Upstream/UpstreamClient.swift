/// Sends requests to the upstream (PokeAPI, or whatever `upstream` names) for the record and proxy modes.
///
/// Declared in the core so the engine stays free of C; `PokestubUpstream` implements it with libcurl.
/// Implementations must never block the caller: `send` queues the exchange and returns at once, and the
/// completion runs later on a thread of the implementation's choosing. The server's own threads therefore
/// keep answering local stubs while slow upstream calls are in flight.
///
/// ```swift
/// client.send(UpstreamRequest(forwarding: request, to: "https://pokeapi.co")) { result in
///     switch result {
///     case .success(let response): print(response.status)
///     case .failure(let error): print(error)      // 502 or 504 material
///     }
/// }
/// ```
package protocol UpstreamClient: Sendable {
    /// Sends one request upstream.
    ///
    /// The response handed to `completion` has its body decoded (no `Content-Encoding` left to undo) and
    /// its header fields as the upstream sent them, repeated names (`Set-Cookie`) kept as separate fields.
    /// Redirects are returned as they are, never followed.
    ///
    /// - Parameters:
    ///   - request: What to send; its URL is absolute and its headers are already filtered.
    ///   - completion: Called exactly once, from any thread, with the response or the reason there is none.
    func send(
        _ request: UpstreamRequest,
        completion: @escaping @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void)
}
