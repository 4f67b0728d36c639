/// What became of a request sent upstream.
public enum ForwardOutcome: Sendable {
    /// A stub answers it: one just recorded, or one that appeared while the request waited.
    case stub(StubMapping)
    /// The upstream's response, not recorded (proxy mode, a filtered request, or a failed write).
    case proxied(UpstreamResponse)
    /// No response: answer 502 or 504.
    case failed(UpstreamError)
}
