/// How much the sessions of one daemon may hold. Going past a limit gets 429 with a JSON reason.
public struct SessionLimits: Sendable, Equatable {
    /// The most sessions open at once (config `sessions.max`).
    public var maxSessions: Int
    /// The most runtime stubs one session may hold (config `sessions.maxStubs`).
    public var maxStubsPerSession: Int
    /// The serve events each session's journal keeps (config `sessions.journalMaxEntries`).
    public var journalCapacity: Int
    /// The request-body bytes each session's journal keeps, oldest events dropped first beyond it.
    public var journalMaxBodyBytes = 16 << 20
    /// Seconds an unused session lives when its creator names no idle time (config `sessions.idleTimeoutSeconds`).
    public var defaultIdleSeconds: Int
    /// The longest idle time a creator may ask for, in seconds.
    public var maxIdleSeconds: Int
    /// Whether a session's own admin routes (`/__admin/sessions/{id}` and below) need the session's secret
    /// (``Session/secretHeader``), and listings show only the sessions whose secret is presented. The daemon
    /// turns it on when it has an admin token: then every job holds the one token, and the secrets keep
    /// each job to the sessions it made.
    public var requiresSecrets = false

    /// Creates limits; the defaults suit a CI host running a few dozen jobs at once.
    public init(
        maxSessions: Int = 256, maxStubsPerSession: Int = 1_000, journalCapacity: Int = 1_000,
        defaultIdleSeconds: Int = 600, maxIdleSeconds: Int = 86_400
    ) {
        self.maxSessions = maxSessions
        self.maxStubsPerSession = maxStubsPerSession
        self.journalCapacity = journalCapacity
        self.defaultIdleSeconds = defaultIdleSeconds
        self.maxIdleSeconds = maxIdleSeconds
    }
}
