import Foundation
import FuzzSupport

@testable import PokestubCore

// Fuzz target: where a recording of a hostile request would be written, and whether the loader would take it.
//
// Input: a request in the ``FuzzRequest`` format, then optionally a line `@@response@@` and the upstream's
// response in the same format, its first line the status (default 200):
//
// ```
// GET /api/v2/pokemon/../%2F/flabébé?token=secret
// Accept: application/json
//
// @@response@@
// 200
// Content-Type: application/json
//
// {"id": 1}
// ```
//
// Builds `RecordingKey(request, options: RecordingOptions())`, `RecordingFileName(key:)` and the recorder's
// `Recording`. Checks, besides never trapping or hanging:
// - `mappingPath` is `mappings/….json`, and the body file (if any) a path under `__files/`, with no empty,
//   `.` or `..` component, none starting with `.`, no byte below 0x20 or DEL, no backslash, every component at
//   most 255 bytes (the usual file-name limit);
// - the same request gives the same name again (determinism), and so do variants recording ignores: an extra
//   header it does not capture, the query parameters in reverse order, a fragment, a JSON body re-indented,
//   another value for a secret query parameter;
// - the mapping passes `RecordingWriter.check` (the loader's rules, applied before anything is written)
//   exactly when the method is an RFC 9110 token; the engine refuses other methods with 400.
//
// The response's header fields are kept to what an upstream can deliver through libcurl (token names,
// values without control characters) and to what the daemon can send (`HTTPSyntax.maxFieldValueBytes` a value,
// `HTTPSyntax.maxHeaderBytes` in all): a response beyond those is refused by design (not recorded, answered
// as received; README, "What the runs found"), so a refusal by `check` is the recorder's fault.

let options = RecordingOptions()
let recorder = Recorder(options: options)
/// Checks against a stub root that is never made: `check` writes nothing.
let writer = RecordingWriter(
    root: FileManager.default.temporaryDirectory.appendingPathComponent("pokestub-fuzz-recording-names"))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecordingNames(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let sections = FuzzRequest.sections(Array(UnsafeBufferPointer(start: start, count: count)), marker: "@@response@@")
    let request = FuzzRequest.parse(sections[0])
    let response = sections.count > 1 ? upstreamResponse(FuzzRequest.parse(sections[1])) : UpstreamResponse(status: 200)

    let key = RecordingKey(request, options: options)
    let name = RecordingFileName(key: key)
    checkPath(name.mappingPath, under: "mappings/", suffix: ".json", for: request)
    invariant(
        RecordingFileName(key: RecordingKey(request, options: options)) == name,
        "two names for \(request.method) \(request.rawURL.debugDescription)")
    for variant in ignoredVariants(of: request) {
        let other = RecordingFileName(key: RecordingKey(variant, options: options))
        invariant(
            other == name,
            "\(request.rawURL.debugDescription) is \(name.mappingPath), its variant \(variant.rawURL.debugDescription) "
                + "\(other.mappingPath)")
    }
    if let secrets = secretVariants(of: request) {
        let (first, second) = secrets
        let one = RecordingFileName(key: RecordingKey(first, options: options))
        let two = RecordingFileName(key: RecordingKey(second, options: options))
        invariant(one == two, "a secret's value names the file: \(one.mappingPath), \(two.mappingPath)")
    }

    let recording = recorder.recording(of: request, response: response, key: key)
    invariant(
        recording.fileName == name, "the recorder names \(recording.fileName.mappingPath), not \(name.mappingPath)")
    if let bodyFile = recording.bodyFile {
        checkPath("__files/" + bodyFile.name, under: "__files/", suffix: "", for: request)
    }
    let validated: Bool
    do {
        _ = try writer.check(recording.stubFile)
        validated = true
    } catch {
        invariant(
            !HTTPSyntax.isToken(request.method),
            "the loader refuses the recording of \(request.method.debugDescription) "
                + "\(request.rawURL.debugDescription): \(error.message)")
        validated = false
    }
    invariant(
        !validated || HTTPSyntax.isToken(request.method),
        "a recording of the method \(request.method.debugDescription), not an RFC 9110 token, would load")
    return 0
}

/// The upstream's answer: status from the first line (100…599, else 200), header fields an upstream could send.
func upstreamResponse(_ parsed: HTTPRequest) -> UpstreamResponse {
    var headers = HTTPHeaders()
    var headBytes = 0
    for (name, value) in parsed.headers.fields
    where HTTPSyntax.isToken(name) && !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        && value.utf8.count <= HTTPSyntax.maxFieldValueBytes
        && headBytes + name.utf8.count + value.utf8.count + 4 <= HTTPSyntax.maxHeaderBytes
    {
        headBytes += name.utf8.count + value.utf8.count + 4
        headers.add(name: name, value: value)
    }
    let status = Int(parsed.method).flatMap { (100..<600).contains($0) ? $0 : nil } ?? 200
    return UpstreamResponse(status: status, headers: headers, body: parsed.body)
}

/// Requests recording must not tell from `request`.
func ignoredVariants(of request: HTTPRequest) -> [HTTPRequest] {
    var variants: [HTTPRequest] = []
    func copy(rawURL: String? = nil, headers: HTTPHeaders? = nil, body: Data? = nil) -> HTTPRequest {
        HTTPRequest(
            method: request.method, rawURL: rawURL ?? request.rawURL, headers: headers ?? request.headers,
            body: body ?? request.body, clientAddress: request.clientAddress)
    }
    // A header recording does not capture (options.capturedHeaders is empty by default).
    var headers = request.headers
    headers.add(name: "X-Fuzz-Ignored", value: "1")
    if options.capturedHeaders.isEmpty { variants.append(copy(headers: headers)) }
    // A fragment, which never reaches a server's matching.
    if !request.rawURL.contains("#") { variants.append(copy(rawURL: request.rawURL + "#fragment")) }
    // The query parameters in the reverse order: the key sorts them.
    if let mark = request.rawURL.firstIndex(of: "?"), !request.rawURL.contains("#") {
        let query = request.rawURL[request.rawURL.index(after: mark)...]
        let reversed = query.split(separator: "&", omittingEmptySubsequences: false).reversed().joined(separator: "&")
        variants.append(copy(rawURL: String(request.rawURL[...mark]) + reversed))
    }
    // A JSON body re-indented with its members sorted: the body digest is of its canonical form.
    if let json = try? JSONValue.parse(request.body), json.isContainer {
        variants.append(copy(body: CanonicalJSON.pretty(json)))
    }
    return variants
}

/// The request with two different values for one secret query parameter, or `nil` when it has a fragment.
func secretVariants(of request: HTTPRequest) -> (HTTPRequest, HTTPRequest)? {
    guard !request.rawURL.contains("#"), options.isRedactedQueryParameter("access_token") else { return nil }
    let separator = request.rawURL.contains("?") ? "&" : "?"
    func with(_ value: String) -> HTTPRequest {
        HTTPRequest(
            method: request.method, rawURL: request.rawURL + separator + "access_token=" + value,
            headers: request.headers, body: request.body, clientAddress: request.clientAddress)
    }
    return (with("one"), with("two"))
}

/// Checks that `path` is a safe relative file path under `prefix`.
func checkPath(_ path: String, under prefix: String, suffix: String, for request: HTTPRequest) {
    let context = "\(path.debugDescription) for \(request.method.debugDescription) \(request.rawURL.debugDescription)"
    invariant(path.hasPrefix(prefix) && path.hasSuffix(suffix), "not \(prefix)…\(suffix): \(context)")
    invariant(
        !path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }),
        "control byte or backslash in \(context)")
    for component in path.split(separator: "/", omittingEmptySubsequences: false) {
        invariant(!component.isEmpty, "empty component in \(context)")
        invariant(!component.hasPrefix("."), "component \(component.debugDescription) starts with a dot in \(context)")
        invariant(component.utf8.count <= 255, "component of \(component.utf8.count) bytes in \(context)")
    }
}
