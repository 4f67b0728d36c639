import Foundation

extension AdminAPI {
    /// `/__admin/recordings/{start,stop,status,snapshot}`, with WireMock's shapes:
    ///
    /// - `POST start` takes a ``RecordSpec`` (`targetBaseUrl`, `filters`, `captureHeaders`, `persist`, and
    ///   pokestub's `mode`) and answers `{"status": "Recording", "targetBaseUrl": …, "mode": …}`.
    /// - `POST stop` answers `{"mappings": [...], "report": {"new", "unchanged", "changed", "total"}}`
    ///   with the stubs recorded since the start, and goes back to the mode before it.
    /// - `GET status` answers `{"status": "Recording" | "Stopped" | "NeverStarted"}` plus the mode and
    ///   upstream.
    /// - `POST snapshot` turns proxied exchanges the journal still holds into stubs and answers like stop
    ///   (`{"ids": [...]}` with `outputFormat: "IDS"`).
    ///
    /// - Parameters:
    ///   - operation: `start`, `stop`, `status` or `snapshot`.
    ///   - request: The admin request.
    /// - Returns: The answer.
    /// - Throws: ``AdminError`` for an invalid spec (400), or a start while recording or a stop while not (409).
    func recording(operation: String, _ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        guard let recordings else { throw .notFound("this server does not record") }
        switch operation {
        case "start":
            let spec = try RecordSpec(body: request.body, snapshot: false)
            try recordings.start(spec)
            return .json(
                .object([
                    "status": .string(recordings.status.rawValue), "targetBaseUrl": .string(recordings.upstream),
                    "mode": .string(info.mode.rawValue),
                ]))
        case "stop":
            let (mappings, report) = try recordings.stop()
            return .json(
                .object([
                    "mappings": .array(mappings), "report": report.json,
                    "meta": .object(["total": .integer(Int64(mappings.count))]),
                ]))
        case "status":
            return .json(
                .object([
                    "status": .string(recordings.status.rawValue), "mode": .string(info.mode.rawValue),
                    "targetBaseUrl": .string(recordings.upstream),
                ]))
        default:  // "snapshot"
            let spec = try RecordSpec(body: request.body, snapshot: true)
            let (mappings, report) = recordings.snapshot(events: journal.events, spec: spec)
            if spec.outputIDsOnly {
                return .json(.object(["ids": .array(mappings.compactMap { $0["id"] }), "report": report.json]))
            }
            return .json(
                .object([
                    "mappings": .array(mappings), "report": report.json,
                    "meta": .object(["total": .integer(Int64(mappings.count))]),
                ]))
        }
    }
}
