import Foundation

extension AdminAPI {
    /// `POST /__admin/mappings/save`.
    static let saveRoutes: [AdminRoute] = [
        .now("POST", "mappings/save") { api, _ throws(AdminError) in try api.saveMappings() }
    ]

    /// `POST /__admin/mappings/save`: writes every runtime stub (added through the admin API) as a mapping file
    /// under the stub root's `mappings/`, then reads the stub root again, so they are served from their files
    /// (and a later reload, the watcher's, finds the same stubs: no duplicates). Answers
    /// `{"saved": ["mappings/get-pokemon-1-<id>.json", ...]}`.
    ///
    /// A stub gets `mappings/<name or url, as a slug>-<id>.json`, WireMock's naming; one that replaces a file
    /// stub (`PUT` with a file stub's id) is written over that file. Every file is read by the loader's rules
    /// before any is written, then each is written atomically and flushed to disk (a temporary file, `fsync`, a
    /// rename: ``RecordingWriter/commit(checking:durability:)`` with ``RecordingWriter/Durability/powerLoss``).
    ///
    /// - Throws: ``AdminError``: 403 in a session (a job would change the tree every job is served from) and for a
    ///   daemon without a stub root; 409 when a stub replaces one in a file of several mappings (writing it
    ///   beside would leave its id twice; nothing is written); 422 naming a file that would not load (a body file
    ///   gone since its stub was added; nothing is written); 500 naming the file that cannot be written; 422
    ///   when the tree has problems after writing (the runtime stubs keep serving).
    private func saveMappings() throws(AdminError) -> HTTPResponse {
        guard basePath.isEmpty, settings != nil else {
            throw AdminError(
                status: 403, title: "Not available in a session",
                detail: "a session's stubs are its own; saving them would change the stub tree every job is served "
                    + "from. Keep them in the job's own mapping files, or save through the daemon's admin API")
        }
        guard let writer = store.writer else {
            throw AdminError(
                status: 403, title: "No stub folder", detail: "this server serves no stub folder to save into")
        }
        let runtime = store.runtimeStubs
        if let clash = runtime.first(where: { $0.replacedFile?.isList == true }) {
            throw AdminError(
                status: 409, title: "Cannot save",
                detail:
                    "stub \(clash.stub.id.uuidString.lowercased()) replaces a mapping in \(clash.replacedFile!.path), "
                    + "a file of several mappings; edit that file instead (nothing was written)")
        }
        let files = runtime.map { stub, replaced in
            StubFile(
                path: replaced?.path ?? "mappings/" + AdminAPI.savedFileName(for: stub),
                data: AdminAPI.savedFileData(for: stub))
        }
        do {
            _ = try writer.commit(checking: files, durability: .powerLoss)
        } catch let error as StubDefinitionError {
            throw AdminError(status: 422, title: "Cannot save", detail: error.message + "; nothing was written")
        } catch {
            throw AdminError(status: 500, title: "Cannot save", detail: "\(error)")
        }
        let saved = files.map(\.path)
        let report = store.reload(adopting: Set(runtime.map(\.stub.id)))
        guard report.succeeded else {
            throw AdminError(
                status: 422, title: "Saved, but the stub files have problems; the runtime stubs are still served",
                detail: report.problems.map(\.description).joined(separator: "\n"),
                extraMembers: ["saved": .array(saved.map(JSONValue.string))])
        }
        return .json(.object(["saved": .array(saved.map(JSONValue.string))]))
    }

    /// The saved mapping file's bytes: the mapping as posted, its members in the order posted and each value
    /// as written (a `jsonBody`'s member order, number spelling and escapes stay, so the file serves the same
    /// bytes), indented two spaces a level, with a final newline. WireMock's bookkeeping is added as WireMock
    /// 2.35 writes it (checked against its jar): `id` first, `uuid` and `"persistent": true` last, each
    /// replacing a member of the same name in place; `insertionIndex` is not written (the load order decides).
    /// A mapping whose text is not an object (it cannot be) is written from its parsed form.
    ///
    /// - Parameter stub: A runtime stub.
    /// - Returns: The file's bytes.
    static func savedFileData(for stub: StubMapping) -> Data {
        let source = stub.definitionSource
        let text =
            source.item.flatMap { JSONText.value(at: [.key("mappings"), .index($0)], in: source.data) } ?? source.data
        guard var members = JSONText.members(of: text) else {
            var data = stub.definition.serialized(pretty: true)
            data.append(UInt8(ascii: "\n"))
            return data
        }
        let id = Data(JSONValue.string(stub.id.uuidString.lowercased()).serialized())
        let bookkeeping: [(name: String, value: Data)] = [("uuid", id), ("persistent", Data("true".utf8))]
        if let index = members.firstIndex(where: { $0.name == "id" }) {
            members[index].value = id
        } else {
            members.insert(("id", id), at: 0)
        }
        for (name, value) in bookkeeping {
            if let index = members.firstIndex(where: { $0.name == name }) {
                members[index].value = value
            } else {
                members.append((name, value))
            }
        }
        var data = Data("{".utf8)
        for (position, member) in members.enumerated() {
            data.append(Data((position == 0 ? "\n  " : ",\n  ").utf8))
            data.append(JSONValue.string(member.name).serialized())
            data.append(Data(": ".utf8))
            data.append(JSONText.pretty(member.value, level: 1))
        }
        data.append(Data((members.isEmpty ? "}\n" : "\n}\n").utf8))
        return data
    }

    /// `get-api-v2-pokemon-1-<id>.json`: the stub's name, else its method and URL, as lower-case letters, digits
    /// and dashes (at most 60), then its id, so two stubs never share a file.
    static func savedFileName(for stub: StubMapping) -> String {
        let text = stub.name ?? "\(stub.request.method ?? "any") \(stub.request.url?.field.value ?? "")"
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        slug = String(slug.prefix(60))
        while slug.hasSuffix("-") { slug.removeLast() }
        return (slug.isEmpty ? "" : slug + "-") + stub.id.uuidString.lowercased() + ".json"
    }
}
