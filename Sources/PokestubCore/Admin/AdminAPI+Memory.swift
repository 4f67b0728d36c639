import Foundation

extension AdminAPI {
    /// `build`'s answer, charged to the memory budget first: ``MemoryBudget/answerCost(bodyBytes:events:)``
    /// of `events` serve events holding `bodyBytes` of bodies, held by the answer's body or stream until the
    /// server has sent it.
    ///
    /// - Throws: ``AdminError`` 429 with `Retry-After` when the budget cannot hold the answer now, or what
    ///   `build` throws.
    func charged(
        bodyBytes: Int, events: Int, _ build: () throws(AdminError) -> HTTPResponse
    ) throws(AdminError) -> HTTPResponse {
        guard let memory else { return try build() }
        let charge = try chargeAnswer(MemoryBudget.answerCost(bodyBytes: bodyBytes, events: events), in: memory)
        let response = try build()
        if let stream = response.stream {
            stream.hold(charge)
        } else {
            response.body.hold(charge)
        }
        return response
    }

    /// ``charged(bodyBytes:events:_:)`` for an answer about `events`, counting their request and response bodies.
    func charged(
        _ events: some Collection<ServeEvent>, _ build: () throws(AdminError) -> HTTPResponse
    ) throws(AdminError) -> HTTPResponse {
        try charged(bodyBytes: AdminAPI.bodyBytes(events), events: events.count, build)
    }

    /// A streamed answer about `events`, sent one of `pieces` at a time, charged the cost of its largest piece
    /// for as long as it is sent: only one piece exists at a time.
    func chargedStream(
        _ events: [ServeEvent], pieces: [Range<Int>], _ build: () -> HTTPResponse
    ) throws(AdminError) -> HTTPResponse {
        guard let memory else { return build() }
        let largest = pieces.map {
            MemoryBudget.answerCost(bodyBytes: AdminAPI.bodyBytes(events[$0]), events: $0.count)
        }
        .max()
        let charge = try chargeAnswer(largest ?? MemoryBudget.answerCost(bodyBytes: 0, events: 0), in: memory)
        let response = build()
        response.stream?.hold(charge)
        return response
    }

    private func chargeAnswer(_ cost: Int, in memory: MemoryBudget) throws(AdminError) -> MemoryCharge {
        guard let charge = memory.charge(cost, for: .answer) else {
            throw .busy("this answer would count \(cost) bytes while it is built and sent, and " + memory.refusal)
        }
        return charge
    }

    /// The request and response body bytes `events` hold.
    static func bodyBytes(_ events: some Collection<ServeEvent>) -> Int {
        events.reduce(0) { $0 + $1.request.body.count + $1.responseBodyBytes }
    }
}
