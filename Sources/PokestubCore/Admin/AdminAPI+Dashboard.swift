import Foundation

extension AdminAPI {
    /// `/__admin/dashboard`: the dashboard page and its script and style sheet (``DashboardAssets``), and the
    /// few views of the journal and the stubs it needs beyond the rest of the admin API. Like every admin route,
    /// they pass ``AdminAccess`` first (token, `Origin`, `Host`, `Sec-Fetch-Site`).
    static let dashboardRoutes: [AdminRoute] = [
        .now("GET", "dashboard") { _, _ in DashboardAssets.response(DashboardAssets.html, type: "text/html") },
        .now("GET", "dashboard/app.js") { _, _ in
            DashboardAssets.response(DashboardScript.source, type: "text/javascript")
        },
        .now("GET", "dashboard/app.css") { _, _ in DashboardAssets.response(DashboardAssets.css, type: "text/css") },
        .now("GET", "dashboard/stubs") { api, _ in api.dashboardStubs() },
        .now("GET", "dashboard/near-misses/{id}") { api, request throws(AdminError) in
            try api.dashboardNearMisses(id: request.parameter("id"))
        },
        .later("GET", "dashboard/changes") { api, request throws(AdminError) in try api.journalChanges(request.http) },
    ]

    /// `GET /__admin/dashboard/stubs`: every stub, newest first, as
    /// `{"stubs": [{"id", "name", "method", "url", "priority", "source", "file" | null, "line" | null,
    /// "scenario" | null, "hits"}], "journalSize"}`.
    ///
    /// - `source`: `"recording"` for a stub whose `metadata.recordedFrom` names the upstream it was recorded
    ///   from (on disk or not), else `"disk"` for one read from a mapping file, else `"admin API"`.
    /// - `file` and `line`: the mapping file relative to the stub root and the 1-based line where the stub's
    ///   mapping starts in it (a file of the form `{"mappings": [...]}` holds several).
    /// - `scenario`: `{"name", "state" (the scenario's state now), "requiredState" | null, "newState" | null}`.
    /// - `hits`: the serve events the journal holds for the stub, so it covers the journal's window only.
    private func dashboardStubs() -> HTTPResponse {
        var hits: [UUID: Int] = [:]
        // Counted on the journal's records: no request is parsed again for this.
        let records = journal.records
        for record in records { if let id = record.stub?.id { hits[id, default: 0] += 1 } }
        let scenarios = store.scenarios
        let stubs = store.index.stubs.reversed().map { stub -> JSONValue in
            var file: JSONValue = .null
            var line: JSONValue = .null
            var source = "admin API"
            if case .file(let path) = stub.source {
                file = .string(path)
                line = .integer(Int64(AdminAPI.line(of: stub.definitionSource)))
                source = "disk"
            }
            if stub.recordedUpstream != nil { source = "recording" }
            let scenario: JSONValue =
                stub.scenario.map { rule in
                    .object([
                        "name": .string(rule.name), "state": .string(scenarios.state(of: rule.name)),
                        "requiredState": rule.requiredState.map(JSONValue.string) ?? .null,
                        "newState": rule.newState.map(JSONValue.string) ?? .null,
                    ])
                } ?? .null
            return .object([
                "id": .string(stub.id.uuidString.lowercased()),
                "name": stub.name.map(JSONValue.string) ?? .null,
                "method": .string(stub.request.method ?? "ANY"),
                "url": .string(stub.request.url.map { $0.field.value } ?? "any URL"),
                "priority": .integer(Int64(stub.priority)),
                "source": .string(source),
                "file": file,
                "line": line,
                "scenario": scenario,
                "hits": .integer(Int64(hits[stub.id] ?? 0)),
            ])
        }
        return .json(.object(["stubs": .array(stubs), "journalSize": .integer(Int64(records.count))]), pretty: false)
    }

    /// The 1-based line where a file stub's mapping starts: its element of `mappings`, or the file's first
    /// value.
    static func line(of source: StubDefinitionSource) -> Int {
        if let item = source.item {
            return TextPosition.line(ofKeyPath: ["mappings", String(item)], in: source.data) ?? 1
        }
        let start = source.data.firstIndex { !" \t\r\n".utf8.contains($0) } ?? source.data.startIndex
        return TextPosition.lineAndColumn(ofByteOffset: start - source.data.startIndex, in: source.data).0
    }

    /// `GET /__admin/dashboard/near-misses/{id}`: the closest stubs to one journaled request, as
    /// `{"nearMisses": [{"stubMapping", "distance", "differences": [{"field", "expected", "actual" | null}]}]}`.
    private func dashboardNearMisses(id: String) throws(AdminError) -> HTTPResponse {
        guard let event = journal.event(id: try AdminAPI.uuid(id)) else {
            throw .notFound("no serve event with id \(id)")
        }
        let nearMisses = NearMiss.closest(to: event.request, in: store.index).map { nearMiss -> JSONValue in
            .object([
                "stubMapping": nearMiss.stub.definition,
                "distance": .double(nearMiss.result.distance),
                "differences": .array(
                    nearMiss.result.differences.map { difference in
                        .object([
                            "field": .string(difference.field), "expected": .string(difference.expected),
                            "actual": difference.actual.map(JSONValue.string) ?? .null,
                            "description": .string(difference.description),
                        ])
                    }),
            ])
        }
        return .json(.object(["nearMisses": .array(nearMisses)]))
    }

    /// `GET /__admin/dashboard/changes?after=N&timeoutMs=T`: answers `{"sequence": M}` as soon as the journal's
    /// change count (``RequestJournal/sequence``) is not `N`, or after `T` ms (default 25,000, at most 60,000)
    /// with it unchanged; without `after`, at once. Long polling on the journal's own waits: no thread is held.
    private func journalChanges(_ request: HTTPRequest) throws(AdminError) -> HTTPReply {
        let timeout = try AdminAPI.intParameter(request, "timeoutMs") ?? 25_000
        guard timeout <= 60_000 else {
            throw .badRequest("Invalid parameter timeoutMs", "expected at most 60000 ms, got \(timeout)")
        }
        let journal = self.journal
        guard let after = try AdminAPI.intParameter(request, "after") else {
            return .response(.json(.object(["sequence": .integer(Int64(journal.sequence))])))
        }
        return .deferred { complete in
            journal.waitForChange(after: after, timeoutMilliseconds: timeout) { sequence in
                complete(.json(.object(["sequence": .integer(Int64(sequence))])))
            }
        }
    }
}
