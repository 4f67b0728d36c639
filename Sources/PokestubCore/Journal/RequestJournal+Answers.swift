import Foundation

extension RequestJournal {
    /// Appends the serve event of an answered request: what every path that answers (a stub, a recording, a
    /// proxied or failed upstream call, a test's closure route) calls once its answer is ready.
    ///
    /// - Parameters:
    ///   - request: The request as the scope saw it (a session's request without its `/__sessions/{id}`).
    ///   - stub: The stub that answered, or `nil` when none did (a near-miss 404, a proxied answer).
    ///   - status: The answer's status code.
    ///   - responseHeaders: The answer's header fields, kept for an answer from the upstream (redacted);
    ///     `nil` for the others.
    ///   - timing: When the request arrived; the event's duration runs from it to now.
    ///   - response: The answer sent, kept for the HAR export and the dashboard; `nil` keeps only its status.
    ///   - id: The event's id, when it was chosen before the answer (to find a proxied exchange again); a new
    ///     one otherwise.
    ///   - schemaFinding: How an upstream answer fared against its endpoint's schema, when it was checked.
    package func recordAnswer(
        to request: HTTPRequest, stub: ServeEvent.StubReference?, status: Int, responseHeaders: HTTPHeaders? = nil,
        timing: ServeTiming, response: HTTPResponse? = nil, id: UUID? = nil,
        schemaFinding: ContractMonitor.Finding? = nil
    ) {
        guard isEnabled else { return }
        // The record is made straight from the request (no serve event in between: one copy fewer of every field).
        // Without an id, the record gets the next one under the lock the append takes.
        append(
            JournalRecord(
                id: id ?? RequestJournal.unassignedID, receivedAt: timing.receivedAt, request: request, stub: stub,
                responseStatus: status, responseHeaders: responseHeaders,
                durationMilliseconds: timing.elapsedMilliseconds, response: response.map(JournaledResponse.init),
                schemaFinding: schemaFinding),
            request: request, assigningID: id == nil)
    }
}
