/// The daemon's global settings, WireMock's `/__admin/settings`: a fixed delay added to every stub answer.
///
/// Set through `POST /__admin/settings` and read on every served stub, kept with the daemon's other
/// per-request facts (``ServerInfo``), so a request reads them with one lock. Sessions do not change them
/// and are not slowed by them: a CI job's session serves its stubs without the daemon's delay.
package final class ServeSettings: Sendable {
    private let info: ServerInfo

    /// Creates settings with no delay, kept in `info`.
    init(info: ServerInfo) {
        self.info = info
    }

    /// Milliseconds added to every stub answer's own delay (WireMock's `fixedDelay`); 0 for none.
    package var fixedDelayMilliseconds: Int {
        get { info.serving.fixedDelayMilliseconds }
        set { info.update { $0.fixedDelayMilliseconds = newValue } }
    }

    /// The most `fixedDelay` may be, in milliseconds: the same bound as a stub's `fixedDelayMilliseconds`.
    package static let maxFixedDelayMilliseconds = 600_000
}
