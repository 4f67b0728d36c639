import Foundation

/// Turns a HAR capture (HTTP Archive 1.2, http://www.softwareishard.com/blog/har-12-spec/, as Safari, Chrome,
/// Proxyman, Charles, Pulse and `GET /__admin/requests?format=har` write it) into stub mappings, exactly as
/// recording does: each entry goes through ``Recorder`` as one exchange with the upstream, so an imported
/// stub has the file name, redaction, body placement and links (kept as in the capture) a recording of the
/// same exchange would have, is read by the loader's rules (``RecordingWriter/check(_:)``) and is written by
/// ``RecordingWriter/commit(_:durability:)`` (atomically; an unchanged file is not rewritten).
///
/// Entries are read from `log.entries`: `request.method`, `request.url` (its path and query; the host is
/// dropped, and a leading `/__sessions/{id}` of a pokestub session export too), `request.headers`,
/// `request.postData.text` (base64 when `_encoding` or `encoding` is `base64`), `response.status`,
/// `response.headers` and `response.content.text` (base64 when `content.encoding` is `base64`). An entry
/// whose `response.status` is 0 (the browser got no answer) is skipped. Entries that make the same recording
/// key (method, path, query in any order, body digest) are one stub: the last of them in the file wins, as a
/// later recording rewrites an earlier one.
///
/// Stubs match paths, not hosts, so a capture that spans several hosts (a browser's, say) could have two hosts'
/// `GET /` write one stub. ``host`` keeps one host's entries; without it, entries of different hosts that would
/// write the same stub stop the import before anything is written, naming both entries and their hosts.
package struct HARImport: Sendable {
    /// One mapping the import writes, or would write.
    package struct Planned: Sendable {
        /// The stub file (mapping and body file), read by the loader's rules.
        package var checked: StubFile.Checked
        /// How it compares with what is on disk now.
        package var change: RecordingWriter.Change
        /// The entry (from 0) it came from.
        package var entry: Int
    }

    /// Redaction and body placement, as for recordings.
    package var options: RecordingOptions
    /// The host whose entries are imported (`pokeapi.co`, or `127.0.0.1:8080` with a port), compared without
    /// regard to case; `nil` imports every host's.
    package var host: String?

    /// Creates an import.
    ///
    /// - Parameters:
    ///   - options: Redaction and body placement (config `recording.*`).
    ///   - host: The one host whose entries are imported (`pokestub import --host`), or `nil` for all.
    package init(options: RecordingOptions = RecordingOptions(), host: String? = nil) {
        self.options = options
        self.host = host
    }

    /// The host of an entry's `request.url` as ``host`` names it: lower case, with the port when the URL has
    /// one (`api.example.com:8443`); `nil` for a URL without a host.
    static func host(ofURL url: String) -> String? {
        guard let components = URLComponents(string: url), let name = components.host, !name.isEmpty else {
            return nil
        }
        return name.lowercased() + (components.port.map { ":\($0)" } ?? "")
    }

    /// The exchanges of a HAR file, in the file's order: each entry's request and answer, or `nil` for one
    /// that had no answer.
    ///
    /// - Throws: ``HARImportError`` when the data is not a HAR log or an entry lacks a needed field.
    package func exchanges(in data: Data) throws(HARImportError) -> [(HTTPRequest, UpstreamResponse)?] {
        try entries(in: data).map(\.exchange)
    }

    /// Each entry's host (``host(ofURL:)``) and exchange, in the file's order.
    private func entries(
        in data: Data
    ) throws(HARImportError) -> [(host: String?, exchange: (HTTPRequest, UpstreamResponse)?)] {
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch {
            throw HARImportError("not JSON: \(error.message)" + (error.line.map { " at line \($0)" } ?? ""))
        }
        guard let entries = json["log"]?["entries"]?.arrayValue else {
            throw HARImportError("not a HAR log: no log.entries array")
        }
        var read: [(host: String?, exchange: (HTTPRequest, UpstreamResponse)?)] = []
        for (index, entry) in entries.enumerated() {
            let host = entry["request"]?["url"]?.stringValue.flatMap(HARImport.host(ofURL:))
            read.append((host, try exchange(entry, index: index)))
        }
        return read
    }

    /// What importing `data` into the writer's stub folder writes: one stub file per distinct request, in the
    /// order of their last entries, each read by the loader's rules and with how it compares with the disk.
    /// Write them with ``RecordingWriter/commit(_:durability:)``.
    ///
    /// - Parameters:
    ///   - data: The HAR file's bytes.
    ///   - writer: The writer of the stub folder, with the loader's rules of that folder.
    /// - Throws: ``HARImportError``, also naming the entry whose stub the loader would refuse (every entry is
    ///   checked, a later one for the same request too).
    package func plan(_ data: Data, into writer: RecordingWriter) throws(HARImportError) -> [Planned] {
        let recorder = Recorder(options: options)
        var byPath: [String: Planned] = [:]
        var order: [String] = []
        let wanted = host?.lowercased()
        var hostsSeen: [String: Int] = [:]
        let entries = try entries(in: data)
        for (index, (entryHost, exchange)) in entries.enumerated() {
            hostsSeen[entryHost ?? "(none)", default: 0] += 1
            if let wanted, entryHost != wanted { continue }
            guard let (request, response) = exchange else { continue }
            let file = recorder.recording(of: request, response: response).stubFile
            if let earlier = byPath[file.path]?.entry, entries[earlier].host != entryHost {
                throw HARImportError(
                    "entries \(earlier) (\(entries[earlier].host ?? "no host")) and \(index) (\(entryHost ?? "no host")) "
                        + "would write the same stub, \(file.path): stubs match paths, not hosts; "
                        + "choose one host with --host NAME; nothing was written")
            }
            // The loader's rules, before anything is written: an entry that would not load (a CR or LF in its
            // method or a header field, say) stops the import whole, so nothing written is refused by
            // `check` or `serve`.
            let checked: StubFile.Checked
            do { checked = try writer.check(file) } catch {
                throw HARImportError("entry \(index): \(error.message); nothing was written")
            }
            if byPath[file.path] != nil { order.removeAll { $0 == file.path } }
            order.append(file.path)
            let change = RecordingWriter.Change(original: writer.fingerprintOnDisk(of: file), latest: file.fingerprint)
            byPath[file.path] = Planned(checked: checked, change: change, entry: index)
        }
        if let wanted, hostsSeen[wanted] == nil {
            let hosts = hostsSeen.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
            throw HARImportError("no entry has the host \(wanted); the file holds \(hosts.joined(separator: ", "))")
        }
        return order.compactMap { byPath[$0] }
    }

    private func exchange(_ entry: JSONValue, index: Int) throws(HARImportError) -> (HTTPRequest, UpstreamResponse)? {
        guard let request = entry["request"], let method = request["method"]?.stringValue,
            let url = request["url"]?.stringValue
        else { throw HARImportError("entry \(index): no request.method or request.url") }
        guard let status = entry["response"]?["status"]?.intValue else {
            throw HARImportError("entry \(index): no response.status")
        }
        guard status > 0 else { return nil }
        let response = entry["response"]!
        var target = HTTPRequest(method: method, rawURL: url)
        var path = target.rawPath
        if path.hasPrefix(Session.pathPrefix + "/") {
            let rest = path.dropFirst(Session.pathPrefix.count + 1)
            path = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        }
        target = HTTPRequest(
            method: method, rawURL: path + (target.rawQuery.map { "?" + $0 } ?? ""),
            headers: try headers(request["headers"], index: index),
            body: try body(
                request["postData"]?["text"],
                encoding: request["postData"]?["_encoding"]
                    ?? request["postData"]?["encoding"], index: index))
        let content = response["content"]
        let answer = UpstreamResponse(
            status: status, headers: try headers(response["headers"], index: index),
            body: try body(content?["text"], encoding: content?["encoding"], index: index))
        return (target, answer)
    }

    private func headers(_ value: JSONValue?, index: Int) throws(HARImportError) -> HTTPHeaders {
        var fields: [(name: String, value: String)] = []
        for field in value?.arrayValue ?? [] {
            guard let name = field["name"]?.stringValue, let text = field["value"]?.stringValue else {
                throw HARImportError("entry \(index): a header without name or value")
            }
            // HTTP/2 captures list pseudo-header fields (`:authority`); they are not header fields of a request.
            if name.hasPrefix(":") { continue }
            fields.append((name, text))
        }
        return HTTPHeaders(fields)
    }

    private func body(_ text: JSONValue?, encoding: JSONValue?, index: Int) throws(HARImportError) -> Data {
        guard let text = text?.stringValue else { return Data() }
        guard encoding?.stringValue == "base64" else { return Data(text.utf8) }
        guard let data = Data(base64Encoded: text) else {
            throw HARImportError("entry \(index): a body marked base64 that is not base64")
        }
        return data
    }
}
