/// What the server does with requests: answer from stubs only, or also talk to the upstream.
public enum ServeMode: String, Sendable, CaseIterable {
    /// Stubs only; never opens an upstream connection.
    case replay
    /// Forward every request to the upstream and write what comes back as stubs.
    case record
    /// Serve matching stubs; forward misses and write them as stubs.
    case recordMissing = "record-missing"
    /// Serve matching stubs; forward misses and write nothing.
    case proxy
}
