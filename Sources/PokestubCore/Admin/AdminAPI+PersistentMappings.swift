import Foundation

extension AdminAPI {
    /// The response header naming the file a persistent stub was written to, relative to the stub root:
    /// `Pokestub-Mapping-File: mappings/pikachu-0f8e….json`.
    static let mappingFileHeader = "Pokestub-Mapping-File"

    /// Writes a stub created or replaced with `"persistent": true` to a mapping file under the stub root's
    /// `mappings/`, as WireMock 2.35 does for a persistent stub ("Persisting stubs" in WireMock's stubbing
    /// docs), and returns the stub as that file will load it.
    ///
    /// The file is read by the loader's rules, then written atomically and flushed to disk (a hidden temporary
    /// file in the same folder, `fsync`, `rename(2)`: ``RecordingWriter/commit(_:durability:)`` with
    /// ``RecordingWriter/Durability/powerLoss``), so the stub tree watcher reads the whole file or none of it,
    /// and reads it as the stub served. Its name is made from the stub's name (or method and URL) and id, `mappings/<slug>-<id>.json`,
    /// where the slug keeps only `a`-`z`, `0`-`9` and `-`: nothing in a request can name a path outside
    /// `mappings/`. A stub that already came from a file of its own is written back to that file, so one id
    /// never lives in two files. The bytes written are the ones posted (comments, key order and `jsonBody`
    /// spelling kept), with `"id"` put first when the body had none.
    ///
    /// The stub serves at once, as the file loads, with the file as its source; when the watcher (or `SIGHUP`,
    /// or `POST /__admin/mappings/reset`) reads the file, its copy replaces this one (``StubStore/persisted(_:)``).
    ///
    /// - Parameters:
    ///   - stub: The stub read from `body`, under the id a `PUT` names.
    ///   - json: `body` parsed, as posted (before a `PUT`'s id is put in).
    ///   - body: The bytes posted.
    /// - Returns: The stub the file holds, with the file as its source, and the file's path relative to the stub
    ///   root.
    /// - Throws: ``AdminError``: 400 for a store without a stub root (a session's stubs live in memory only) and
    ///   for a file that would not load; 409 for the id of a stub in a file with several mappings; 500 when the
    ///   file cannot be written.
    func persist(_ stub: StubMapping, json: JSONValue, body: Data) throws(AdminError) -> (StubMapping, String) {
        guard let writer = store.writer else {
            throw .badRequest(
                "Stub not persistent",
                basePath.isEmpty
                    ? "this server has no stub root to write mappings/ under; add the stub without \"persistent\""
                    : "a session's stubs live in memory only; add the stub without \"persistent\", or save it "
                        + "through the daemon's own /__admin/mappings")
        }
        let relative: String
        if let existing = store.index.stub(id: stub.id), case .file(let path) = existing.source {
            guard existing.definitionSource.item == nil else {
                throw AdminError(
                    status: 409, title: "Stub not persistent",
                    detail:
                        "stub \(stub.id.uuidString.lowercased()) is one of several mappings in \(path); edit that file, "
                        + "or add the stub under another id")
            }
            relative = path
        } else {
            relative = "mappings/" + AdminAPI.persistentFileName(for: stub, json: json)
        }
        let file = StubFile(path: relative, data: AdminAPI.mappingFileData(body, json: json, id: stub.id))
        let checked: StubFile.Checked
        do { checked = try writer.check(file) } catch { throw .badRequest("Stub not persistent", error.message) }
        var saved: StubMapping
        do { saved = try writer.commit(checked, durability: .powerLoss).stub } catch {
            throw AdminError(status: 500, title: "Stub not persistent", detail: error.description)
        }
        saved.memoryCharge = stub.memoryCharge
        return (saved, relative)
    }

    /// `<slug>-<id>.json`: the slug is the stub's name, or its method and URL, in lower case with every run
    /// of other characters one `-`, at most 48 bytes; the id keeps names unique.
    static func persistentFileName(for stub: StubMapping, json: JSONValue) -> String {
        let label =
            stub.name ?? [stub.request.method ?? "any", stub.request.url?.field.value ?? ""].joined(separator: " ")
        var slug = ""
        for byte in label.lowercased().utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                slug.append(Character(Unicode.Scalar(byte)))
            default:
                if !slug.isEmpty, !slug.hasSuffix("-") { slug.append("-") }
            }
            if slug.utf8.count >= 48 { break }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        let id = stub.id.uuidString.lowercased()
        return slug.isEmpty ? "\(id).json" : "\(slug)-\(id).json"
    }

    /// The mapping file's bytes, which the loader reads under the stub's id: `body` as posted when each `id` and
    /// `uuid` it has names the stub's id; `body` with `"id": "<id>"` put right after its opening brace when it
    /// has neither and starts with that brace; else `json` written out with the id and no `uuid` (a `PUT` whose
    /// body names another id, or something that is no UUID, which the `PUT`'s id replaced; a body opening with a
    /// comment).
    static func mappingFileData(_ body: Data, json: JSONValue, id: UUID) -> Data {
        let idText = id.uuidString.lowercased()
        let named = [json["id"], json["uuid"]].compactMap { $0 }
        if !named.isEmpty, named.allSatisfy({ $0.stringValue?.lowercased() == idText }) { return body }
        var bytes = [UInt8](body)
        let whitespace = Set(" \t\r\n".utf8)
        if named.isEmpty, let brace = bytes.firstIndex(where: { !whitespace.contains($0) }),
            bytes[brace] == UInt8(ascii: "{")
        {
            let rest = bytes[(brace + 1)...].first { !whitespace.contains($0) }
            var member = "\n  \"id\": \"\(idText)\""
            if rest != UInt8(ascii: "}") { member += "," }
            bytes.insert(contentsOf: Array(member.utf8), at: brace + 1)
            return Data(bytes)
        }
        guard case .object(var members) = json else { return body }
        members["id"] = .string(idText)
        members.removeValue(forKey: "uuid")
        return JSONValue.object(members).serialized(pretty: true)
    }
}
