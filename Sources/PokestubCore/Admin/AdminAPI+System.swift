import Foundation

extension AdminAPI {
    /// `/__admin/health`, `/__admin/version` and `/__admin/reset`.
    static let systemRoutes: [AdminRoute] = [
        .now("GET", "health") { api, _ in api.health() },
        .now("GET", "version") { _, _ in .json(.object(["version": .string(PokestubVersion.current)])) },
        .now("POST", "reset") { api, _ in api.reset() },
    ]

    /// `GET /__admin/health`: `healthy`, or `degraded` after a reload that failed or left a file out, with the
    /// stub count, the number of warnings of the last reload (`"stubWarnings": 2`: problems of stubs that answer
    /// 500 naming them, see ``StubLoader``), mode, journal size, uptime, the last reload with its problems and
    /// warnings, and the requests on slow-request threads (`"slowRequests": {"running": 1, "waiting": 0}`, see
    /// ``SlowRequestPool``).
    private func health() -> HTTPResponse {
        let current = info
        let reload = store.lastReload
        let degraded = reload.map { !$0.succeeded || !$0.problems.isEmpty } ?? false
        var body: [String: JSONValue] = [
            "status": .string(degraded ? "degraded" : "healthy"),
            "version": .string(PokestubVersion.current),
            "mode": .string(current.mode.rawValue),
            "baseUrl": .string(current.baseURL),
            "stubs": .integer(Int64(store.index.count)),
            "stubWarnings": .integer(Int64(reload?.warnings.count ?? 0)),
            "journal": .object([
                "entries": .integer(Int64(journal.count)), "maxEntries": .integer(Int64(journal.capacity)),
            ]),
            "uptimeInSeconds": .integer(Int64(Date().timeIntervalSince(current.startedAt))),
            "timestamp": .string(ServeEvent.timestamp(Date())),
        ]
        if let slowRequests {
            body["slowRequests"] = .object([
                "running": .integer(Int64(slowRequests.running)), "waiting": .integer(Int64(slowRequests.waiting)),
            ])
        }
        if let reload {
            body["lastReload"] = .object([
                "at": .string(ServeEvent.timestamp(reload.at)),
                "succeeded": .bool(reload.succeeded),
                "stubCount": .integer(Int64(reload.stubCount)),
                "problems": .array(reload.problems.map { .string($0.description) }),
                "warnings": .array(reload.warnings.map { .string($0.description) }),
            ])
            var message =
                reload.succeeded
                ? "serving \(store.index.count) stubs"
                : "last reload failed with \(reload.problems.count) problem(s); still serving the previous stubs"
            if reload.succeeded, !reload.problems.isEmpty {
                message += "; \(reload.problems.count) problem(s) left their files out"
            }
            if !reload.warnings.isEmpty {
                message += "; \(reload.warnings.count) warning(s): stubs that answer 500 naming what they lack"
            }
            body["message"] = .string(message)
        }
        return .json(.object(body))
    }

    /// `POST /__admin/reset`: clears the journal, runtime stubs and scenario states and reads the stub files
    /// again.
    private func reset() -> HTTPResponse {
        journal.clear()
        store.resetToFiles()
        store.scenarios.reset()
        HeapRelease.release(always: true)
        return .json(.object([:]))
    }
}
