import PokestubLocking

/// Sends requests upstream, one call for identical requests in flight at once.
///
/// The first request with a given ``Flight`` leads: it makes the call, and its `settle` step (recording the
/// answer, or keeping it for a snapshot) turns the result into the outcome. Requests with the same flight
/// that arrive meanwhile wait for that outcome instead of calling again, so identical misses make one
/// upstream call and one recording.
final class UpstreamForwarder: Sendable {
    /// What makes two requests the same call: the recording key, and whether the answer is recorded.
    struct Flight: Hashable, Sendable {
        var record: Bool
        var key: RecordingKey
    }

    private let client: (any UpstreamClient)?
    private let inFlight = Locked<[Flight: [@Sendable (ForwardOutcome) -> Void]]>([:])

    /// Creates a forwarder.
    ///
    /// - Parameter client: The upstream client; without one every request fails with 502.
    init(client: (any UpstreamClient)?) {
        self.client = client
    }

    /// Whether there is an upstream client at all.
    var hasClient: Bool { client != nil }

    /// Sends a request upstream, or joins the identical one in flight.
    ///
    /// - Parameters:
    ///   - request: The request as received.
    ///   - upstream: The upstream base URL, e.g. `https://pokeapi.co`.
    ///   - flight: What identical requests share.
    ///   - shortcut: Asked once this request leads, before calling: an outcome that makes the call needless
    ///     (a stub that appeared meanwhile), or `nil`.
    ///   - settle: Turns the upstream's result into the outcome, on an upstream client thread.
    ///   - completion: Called once with the outcome, on an upstream client thread (or the caller's).
    func forward(
        _ request: HTTPRequest, to upstream: String, flight: Flight, shortcut: () -> ForwardOutcome?,
        settle: @escaping @Sendable (Result<UpstreamResponse, UpstreamError>) -> ForwardOutcome,
        completion: @escaping @Sendable (ForwardOutcome) -> Void
    ) {
        guard let client else {
            completion(
                .failed(
                    UpstreamError(
                        kind: .failed, url: upstream + request.rawURL, message: "this server has no upstream client")))
            return
        }
        let leads: Bool = inFlight.withLock { inFlight in
            if inFlight[flight] != nil {
                inFlight[flight]!.append(completion)
                return false
            }
            inFlight[flight] = [completion]
            return true
        }
        guard leads else { return }
        if let outcome = shortcut() {
            finish(flight, outcome)
            return
        }
        client.send(UpstreamRequest(forwarding: request, to: upstream)) { [self] result in
            finish(flight, settle(result))
        }
    }

    /// Sends one request as it is, alone: no joining of identical requests, no recording (a stub's
    /// `proxyBaseUrl`).
    ///
    /// - Parameters:
    ///   - request: The request for the upstream.
    ///   - completion: Called once, on an upstream client thread (or the caller's without a client).
    func send(
        _ request: UpstreamRequest, completion: @escaping @Sendable (Result<UpstreamResponse, UpstreamError>) -> Void
    ) {
        guard let client else {
            completion(
                .failure(UpstreamError(kind: .failed, url: request.url, message: "this server has no upstream client")))
            return
        }
        client.send(request, completion: completion)
    }

    private func finish(_ flight: Flight, _ outcome: ForwardOutcome) {
        let waiters = inFlight.withLock { $0.removeValue(forKey: flight) ?? [] }
        for waiter in waiters { waiter(outcome) }
    }
}
