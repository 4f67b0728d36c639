import Foundation

/// A serve event as the request journal keeps it: the request packed into one buffer (``PackedRequest``), the
/// answer's status, stub and timing, and the answer sent (shared with the stub, not copied).
///
/// The ``ServeEvent`` (with its parsed request) is built only when the admin API asks (``event``); the
/// filters that need no request (time, stub, matched) read the record itself.
struct JournalRecord: Sendable {
    /// The event's id; a record appended with a new id gets it under the journal's lock.
    var id: UUID
    let receivedAt: Date
    var request: PackedRequest
    let stub: ServeEvent.StubReference?
    let responseStatus: Int
    let responseHeaders: HTTPHeaders?
    let durationMilliseconds: Double
    var response: JournaledResponse?
    /// The check of an upstream answer against its endpoint's schema, when there was one.
    let schemaFinding: ContractMonitor.Finding?

    init(
        id: UUID, receivedAt: Date, request: HTTPRequest, stub: ServeEvent.StubReference?, responseStatus: Int,
        responseHeaders: HTTPHeaders?, durationMilliseconds: Double, response: JournaledResponse?,
        schemaFinding: ContractMonitor.Finding? = nil
    ) {
        self.id = id
        self.receivedAt = receivedAt
        self.request = PackedRequest(request)
        self.stub = stub
        self.responseStatus = responseStatus
        self.responseHeaders = responseHeaders
        self.durationMilliseconds = durationMilliseconds
        self.response = response
        self.schemaFinding = schemaFinding
    }

    init(_ event: ServeEvent) {
        id = event.id
        receivedAt = event.receivedAt
        request = PackedRequest(event.request)
        stub = event.stub
        responseStatus = event.responseStatus
        responseHeaders = event.responseHeaders
        durationMilliseconds = event.durationMilliseconds
        response = event.response
        schemaFinding = event.schemaFinding
    }

    /// The serve event, its request parsed again.
    var event: ServeEvent { event(with: request.request) }

    /// The serve event with `request`, the request this record packed.
    func event(with request: HTTPRequest) -> ServeEvent {
        ServeEvent(
            id: id, receivedAt: receivedAt, request: request, stub: stub, responseStatus: responseStatus,
            responseHeaders: responseHeaders, durationMilliseconds: durationMilliseconds, response: response,
            schemaFinding: schemaFinding)
    }

    /// The request-body bytes kept.
    var requestBodyBytes: Int { request.body.count }

    /// The response-body bytes kept.
    var responseBodyBytes: Int { response?.body?.count ?? 0 }

    /// Whether a stub answered.
    var wasMatched: Bool { stub != nil }
}
