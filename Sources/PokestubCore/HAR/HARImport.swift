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
public struct HARImport: Sendable {
    /// One mapping the import writes, or would write.
    public struct Planned: Sendable {
        /// The stub file (mapping and body file), read by the loader's rules.
        public var checked: StubFile.Checked
        /// How it compares with what is on disk now.
        public var change: RecordingWriter.Change
        /// The entry (from 0) it came from.
        public var entry: Int
    }

    /// Redaction and body placement, as for recordings.
    public var options: RecordingOptions

    /// Creates an import.
    ///
    /// - Parameter options: Redaction and body placement (config `recording.*`).
    public init(options: RecordingOptions = RecordingOptions()) {
        self.options = options
    }

    /// The exchanges of a HAR file, in the file's order: each entry's request and answer, or `nil` for one
    /// that had no answer.
    ///
    /// - Throws: ``HARImportError`` when the data is not a HAR log or an entry lacks a needed field.
    public func exchanges(in data: Data) throws(HARImportError) -> [(HTTPRequest, UpstreamResponse)?] {
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch {
            throw HARImportError("not JSON: \(error.message)" + (error.line.map { " at line \($0)" } ?? ""))
        }
        guard let entries = json["log"]?["entries"]?.arrayValue else {
            throw HARImportError("not a HAR log: no log.entries array")
        }
        var exchanges: [(HTTPRequest, UpstreamResponse)?] = []
        for (index, entry) in entries.enumerated() {
            exchanges.append(try exchange(entry, index: index))
        }
        return exchanges
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
    public func plan(_ data: Data, into writer: RecordingWriter) throws(HARImportError) -> [Planned] {
        let recorder = Recorder(options: options)
        var byPath: [String: Planned] = [:]
        var order: [String] = []
        for (index, exchange) in try exchanges(in: data).enumerated() {
            guard let (request, response) = exchange else { continue }
            let file = recorder.recording(of: request, response: response).stubFile
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
