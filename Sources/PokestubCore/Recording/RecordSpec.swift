import Foundation

/// The body of `POST /__admin/recordings/start` and `POST /__admin/recordings/snapshot`: WireMock's record
/// spec, the supported part of it, plus pokestub's `mode`.
///
/// ```json
/// {"targetBaseUrl": "https://pokeapi.co",
///  "filters": {"urlPathPattern": "/api/v2/.*", "method": "GET"},
///  "captureHeaders": {"Accept": {}, "Accept-Language": {"caseInsensitive": true}},
///  "persist": true, "outputFormat": "FULL", "mode": "record-missing"}
/// ```
///
/// Fields WireMock has and pokestub does not support (`extractBodyCriteria`, `requestBodyPattern`,
/// `transformers`, `transformerParameters`, `repeatsAsScenarios: true`) are refused with a 400 naming the
/// field, never ignored.
package struct RecordSpec: Sendable {
    /// The upstream to record from (`targetBaseUrl`); `nil` means the configured `upstream`.
    package var targetBaseURL: String?
    /// Only requests matching this pattern are recorded (`filters`, a request pattern).
    package var filter: RequestPattern?
    /// Only these serve events are turned into stubs (`filters.ids`, snapshot only).
    package var eventIDs: Set<UUID>?
    /// Request headers to match on (`captureHeaders`), by name with whether case is ignored.
    package var capturedHeaders: [String: Bool]
    /// Whether to write files (`persist`, default `true`).
    package var persist: Bool
    /// Whether the answer lists only ids (`outputFormat: "IDS"`) instead of whole mappings (`"FULL"`).
    package var outputIDsOnly: Bool
    /// The mode while recording (pokestub's own field): `record` (default, WireMock's behaviour: every
    /// request goes upstream) or `record-missing` (stubs answer what they can).
    package var mode: ServeMode

    /// A spec with WireMock's defaults.
    package init() {
        targetBaseURL = nil
        filter = nil
        eventIDs = nil
        capturedHeaders = [:]
        persist = true
        outputIDsOnly = false
        mode = .record
    }

    /// The fields accepted.
    static let fieldNames = [
        "targetBaseUrl", "filters", "captureHeaders", "persist", "outputFormat", "repeatsAsScenarios", "mode",
    ]

    /// Reads a spec from an admin request body (an empty body gives the defaults).
    ///
    /// - Parameters:
    ///   - body: The request body.
    ///   - snapshot: Whether this is a snapshot (which takes `filters.ids` and no `targetBaseUrl` or `mode`).
    /// - Throws: ``AdminError`` (400) naming the field that is invalid or not supported.
    package init(body: Data, snapshot: Bool) throws(AdminError) {
        self.init()
        guard !body.isEmpty else { return }
        let json = try AdminAPI.parse(body, what: "record spec")
        guard case .object(let members) = json else {
            throw .badRequest("Invalid record spec", "must be a JSON object, not \(json.typeName)")
        }
        let unsupported = ["extractBodyCriteria", "requestBodyPattern", "transformers", "transformerParameters"]
        for (name, value) in members.sorted(by: { $0.key < $1.key }) where value != .null {
            if unsupported.contains(name) {
                throw .badRequest("Unsupported record spec field", "\(name) is not supported by pokestub")
            }
            guard RecordSpec.fieldNames.contains(name) else {
                throw .badRequest(
                    "Unknown record spec field",
                    "\(name) (supported: \(RecordSpec.fieldNames.joined(separator: ", ")))")
            }
            try read(name, value, snapshot: snapshot)
        }
    }

    private mutating func read(_ name: String, _ value: JSONValue, snapshot: Bool) throws(AdminError) {
        switch name {
        case "targetBaseUrl":
            guard !snapshot else { throw .badRequest("Invalid record spec", "a snapshot takes no targetBaseUrl") }
            guard case .string(let url) = value, RecordSpec.isBaseURL(url) else {
                throw .badRequest(
                    "Invalid record spec", "targetBaseUrl must be an http or https base URL such as https://pokeapi.co")
            }
            targetBaseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        case "filters":
            guard case .object(var members) = value else {
                throw .badRequest("Invalid record spec", "filters must be a JSON object")
            }
            if let ids = members.removeValue(forKey: "ids") {
                guard snapshot else { throw .badRequest("Invalid record spec", "filters.ids is for snapshots only") }
                guard case .array(let items) = ids else {
                    throw .badRequest("Invalid record spec", "filters.ids must be an array of serve event ids")
                }
                var parsed = Set<UUID>()
                for item in items {
                    guard let text = item.stringValue, let id = UUID(uuidString: text) else {
                        throw .badRequest(
                            "Invalid record spec", "filters.ids: \(item.serializedString()) is not a UUID")
                    }
                    parsed.insert(id)
                }
                eventIDs = parsed
            }
            if members.removeValue(forKey: "allowNonProxied") == .bool(true) {
                throw .badRequest("Unsupported record spec field", "filters.allowNonProxied: true is not supported")
            }
            if !members.isEmpty {
                do { filter = try RequestPattern(json: .object(members)) } catch {
                    throw .badRequest("Invalid record spec", "filters.\(error.description)")
                }
            }
        case "captureHeaders":
            guard case .object(let headers) = value else {
                throw .badRequest("Invalid record spec", "captureHeaders must be an object of header names")
            }
            for (header, options) in headers {
                let caseInsensitive = options["caseInsensitive"] == .bool(true)
                guard case .object(let optionMembers) = options,
                    Set(optionMembers.keys).isSubset(of: ["caseInsensitive"])
                else {
                    throw .badRequest(
                        "Invalid record spec", "captureHeaders.\(header) must be {} or {\"caseInsensitive\": true}")
                }
                capturedHeaders[header] = caseInsensitive
            }
        case "persist":
            guard case .bool(let flag) = value else {
                throw .badRequest("Invalid record spec", "persist must be true or false")
            }
            persist = flag
        case "outputFormat":
            guard let format = value.stringValue?.uppercased(), ["FULL", "IDS"].contains(format) else {
                throw .badRequest("Invalid record spec", "outputFormat must be FULL or IDS")
            }
            outputIDsOnly = format == "IDS"
        case "repeatsAsScenarios":
            guard value == .bool(false) else {
                throw .badRequest(
                    "Unsupported record spec field", "repeatsAsScenarios: scenarios are not supported; use false")
            }
        default:  // "mode"
            guard !snapshot else { throw .badRequest("Invalid record spec", "a snapshot takes no mode") }
            guard let text = value.stringValue, let mode = ServeMode(rawValue: text),
                mode == .record || mode == .recordMissing
            else {
                throw .badRequest("Invalid record spec", "mode must be record or record-missing")
            }
            self.mode = mode
        }
    }

    /// Whether text is an http(s) URL with a host and no query.
    static func isBaseURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), ["http", "https"].contains(components.scheme ?? "") else {
            return false
        }
        return !(components.host ?? "").isEmpty && components.query == nil
    }
}
