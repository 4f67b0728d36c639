import Foundation

extension AdminAPI {
    /// `/__admin/mappings`: list, add and remove stubs, one stub by id, and back to the stub files.
    static let mappingRoutes: [AdminRoute] = [
        .now("GET", "mappings") { api, request throws(AdminError) in try api.listMappings(request.http) },
        .now("POST", "mappings") { api, request throws(AdminError) in
            try api.createMapping(request.http.body, id: nil, status: 201)
        },
        .now("DELETE", "mappings") { api, _ in
            api.store.removeAll()
            return .json(.object([:]))
        },
        .now("POST", "mappings/reset") { api, _ throws(AdminError) in try api.resetMappings() },
        .now("GET", "mappings/{id}") { api, request throws(AdminError) in try api.mapping(id: request.parameter("id"))
        },
        .now("PUT", "mappings/{id}") { api, request throws(AdminError) in
            try api.replaceMapping(id: request.parameter("id"), body: request.http.body)
        },
        .now("DELETE", "mappings/{id}") { api, request throws(AdminError) in
            try api.removeMapping(id: request.parameter("id"))
        },
    ]

    /// `GET /__admin/mappings?offset=&limit=`: the stubs, newest first, and `meta.total`.
    private func listMappings(_ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        let stubs = store.index.stubs
        let offset = try AdminAPI.intParameter(request, "offset") ?? 0
        let limit = try AdminAPI.intParameter(request, "limit") ?? stubs.count
        let page = stubs.reversed().dropFirst(offset).prefix(limit)
        let sourceBytes = page.reduce(0) { $0 + $1.definitionSource.data.count }
        return try charged(bodyBytes: sourceBytes, events: page.count) {
            .json(
                .object([
                    "mappings": .array(page.map(\.definition)),
                    "meta": .object(["total": .integer(Int64(stubs.count))]),
                ]))
        }
    }

    private func mapping(id: String) throws(AdminError) -> HTTPResponse {
        guard let stub = store.index.stub(id: try AdminAPI.uuid(id)) else { throw .notFound("no stub with id \(id)") }
        return .json(stub.definition)
    }

    private func replaceMapping(id: String, body: Data) throws(AdminError) -> HTTPResponse {
        let uuid = try AdminAPI.uuid(id)
        guard store.index.stub(id: uuid) != nil else { throw .notFound("no stub with id \(id)") }
        return try createMapping(body, id: uuid, status: 200)
    }

    private func removeMapping(id: String) throws(AdminError) -> HTTPResponse {
        guard store.remove(id: try AdminAPI.uuid(id)) else { throw .notFound("no stub with id \(id)") }
        return .json(.object([:]))
    }

    /// Adds the stub in `body`, under `id` when given (replacing the stub with that id); with
    /// `"persistent": true` also writes it under the stub root's `mappings/` (``persist(_:json:body:)``).
    ///
    /// - Throws: ``AdminError``: 400 for a body that is not a valid stub, 429 beyond `maxStubs`; for a
    ///   persistent stub, what ``persist(_:json:body:)`` throws.
    private func createMapping(_ body: Data, id: UUID?, status: Int) throws(AdminError) -> HTTPResponse {
        let posted = try AdminAPI.parse(body, what: "stub mapping")
        var json = posted
        if let id, case .object(var members) = json {
            members["id"] = .string(id.uuidString.lowercased())
            members.removeValue(forKey: "uuid")
            json = .object(members)
        }
        let filesRoot = bodyFilesRoot.map { URL(fileURLWithPath: $0).appendingPathComponent("__files") }
        // The stub keeps the text posted (its comments blanked out), not its parsed tree: the listing, the
        // serve events and `mappings/save` then show members in the order posted and numbers as written.
        let source = StubDefinitionSource(data: JSONComments.blankedOut(body) ?? body)
        var stub: StubMapping
        do {
            stub = try StubMapping(
                json: json, defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: filesRoot),
                definitionSource: source, globalResponseTemplating: store.globalResponseTemplating)
        } catch {
            throw .badRequest("Invalid stub mapping", error.description)
        }
        if !basePath.isEmpty, stub.response.proxy != nil {
            // A session answers from stubs only: its stubs may not make the daemon call other servers.
            throw .badRequest(
                "Invalid stub mapping",
                "response.proxyBaseUrl: a session's stubs cannot proxy; add the stub to the daemon")
        }
        if let maxStubs, store.index.stub(id: stub.id) == nil, store.index.count >= maxStubs {
            throw AdminError(
                status: 429, title: "Too many stubs",
                detail: "this session holds \(store.index.count) stubs, the limit (sessions.maxStubs) is \(maxStubs)")
        }
        if let memory {
            // A stub it replaces gives its charge back only once it is gone, so a replacement needs room
            // for both for a moment, as memory does.
            let cost = MemoryBudget.stubCost(mappingBytes: body.count)
            guard let charge = memory.charge(cost, for: .stub) else {
                throw .insufficientStorage(
                    "the stub would count \(cost) bytes (three times its \(body.count)-byte mapping), and "
                        + memory.refusal)
            }
            stub.memoryCharge = charge
        }
        if json["persistent"] == .bool(true) {
            let (saved, path) = try persist(stub, json: posted, body: body)
            store.persisted(saved)
            var response = HTTPResponse.json(saved.definition, status: status)
            response.headers.add(name: AdminAPI.mappingFileHeader, value: path)
            return response
        }
        store.add(stub)
        return .json(stub.definition, status: status)
    }

    /// `POST /__admin/mappings/reset`: drops runtime changes and reads the stub files again. Answers
    /// `{"stubs": 12}`, with `"problems"` (files left out) and `"warnings"` (stubs that answer 500) as
    /// `path:line: message` lines when there are any.
    ///
    /// - Throws: ``AdminError`` 422 listing the problems when the reload fails (the stub root is no folder, or a
    ///   file is broken with `strict`; the previous stubs keep serving).
    private func resetMappings() throws(AdminError) -> HTTPResponse {
        let report = store.resetToFiles()
        guard report.succeeded else {
            throw AdminError(
                status: 422, title: "Stub files have problems; the previous stubs are still served",
                detail: report.problems.map(\.description).joined(separator: "\n"))
        }
        var members: [String: JSONValue] = ["stubs": .integer(Int64(store.index.count))]
        if !report.problems.isEmpty { members["problems"] = .array(report.problems.map { .string($0.description) }) }
        if !report.warnings.isEmpty { members["warnings"] = .array(report.warnings.map { .string($0.description) }) }
        return .json(.object(members))
    }
}
