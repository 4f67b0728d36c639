/// What became of a request sent upstream.
package enum ForwardOutcome: Sendable {
    /// A stub answers it: one that appeared while the request waited (record-missing).
    case stub(StubMapping)
    /// The upstream's response, recorded: the stub written for it (or the last recording, reused when the
    /// upstream answered the same), and the response itself, which the client gets as the upstream sent it
    /// (redaction applies to the recording and the journal only).
    case recorded(StubMapping, UpstreamResponse)
    /// The upstream's response, not recorded (proxy mode, a filtered request, or a failed write).
    case proxied(UpstreamResponse)
    /// No response: answer 502 or 504.
    case failed(UpstreamError)
}
