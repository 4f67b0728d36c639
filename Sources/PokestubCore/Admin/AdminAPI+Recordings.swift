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
    /// Each answers 404 on a server that does not record, 400 for an invalid spec, and 409 for a start while
    /// recording or a stop while not.
    static let recordingRoutes: [AdminRoute] = [
        .now("POST", "recordings/start") { api, request throws(AdminError) in
            try api.startRecording(request.http.body)
        },
        .now("POST", "recordings/stop") { api, _ throws(AdminError) in try api.stopRecording() },
        .now("GET", "recordings/status") { api, _ throws(AdminError) in try api.recordingStatus() },
        .now("POST", "recordings/snapshot") { api, request throws(AdminError) in try api.snapshot(request.http.body) },
    ]

    private func requireRecordings() throws(AdminError) -> Recordings {
        guard let recordings else { throw .notFound("this server does not record") }
        return recordings
    }

    private func startRecording(_ body: Data) throws(AdminError) -> HTTPResponse {
        let recordings = try requireRecordings()
        let spec = try RecordSpec(body: body, snapshot: false)
        do { try recordings.start(spec) } catch { throw AdminError(error) }
        return .json(
            .object([
                "status": .string(recordings.status.rawValue), "targetBaseUrl": .string(recordings.upstream),
                "mode": .string(info.mode.rawValue),
            ]))
    }

    private func stopRecording() throws(AdminError) -> HTTPResponse {
        let recordings = try requireRecordings()
        let stopped: (mappings: [JSONValue], report: RecordingReport)
        do { stopped = try recordings.stop() } catch { throw AdminError(error) }
        let (mappings, report) = stopped
        return AdminAPI.recorded(mappings, report)
    }

    private func recordingStatus() throws(AdminError) -> HTTPResponse {
        let recordings = try requireRecordings()
        return .json(
            .object([
                "status": .string(recordings.status.rawValue), "mode": .string(info.mode.rawValue),
                "targetBaseUrl": .string(recordings.upstream),
            ]))
    }

    private func snapshot(_ body: Data) throws(AdminError) -> HTTPResponse {
        let recordings = try requireRecordings()
        let spec = try RecordSpec(body: body, snapshot: true)
        let (mappings, report) = recordings.snapshot(events: journal.events, spec: spec)
        if spec.outputIDsOnly {
            return .json(.object(["ids": .array(mappings.compactMap { $0["id"] }), "report": report.json]))
        }
        return AdminAPI.recorded(mappings, report)
    }

    /// The answer of stop and snapshot: the stubs, the report and `meta.total`.
    private static func recorded(_ mappings: [JSONValue], _ report: RecordingReport) -> HTTPResponse {
        .json(
            .object([
                "mappings": .array(mappings), "report": report.json,
                "meta": .object(["total": .integer(Int64(mappings.count))]),
            ]))
    }
}
