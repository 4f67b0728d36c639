/// Why a recording run could not be started or stopped; the admin API answers each with 409 Conflict.
package enum RecordingRunError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A run is already going, from this upstream.
    case alreadyRecording(upstream: String)
    /// No run is going.
    case notRecording
    /// The daemon has no upstream client to record through.
    case noUpstreamClient

    package var description: String {
        switch self {
        case .alreadyRecording(let upstream): "a recording from \(upstream) is running; stop it first"
        case .notRecording: "no recording is running"
        case .noUpstreamClient: "this server has no upstream client"
        }
    }
}
