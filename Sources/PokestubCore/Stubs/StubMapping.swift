import Foundation

/// A stub: a request pattern and the response to send when a request matches it (WireMock's stub mapping).
///
/// In JSON:
/// ```json
/// {
///   "id": "c4b6c1d2-…", "name": "bulbasaur", "priority": 5,
///   "request": { "method": "GET", "urlPath": "/api/v2/pokemon/1/" },
///   "response": { "status": 200, "bodyFileName": "pokemon/1.json" }
/// }
/// ```
/// Among stubs that match a request, the one with the lowest `priority` number wins (1 is highest, default
/// 5), and among those the one added last.
package struct StubMapping: Sendable {
    /// The stub's id. From the file when given, otherwise derived from where the stub came from, so the same
    /// file gives the same id on every load.
    package var id: UUID
    /// A name for people, shown in near misses and logs.
    package var name: String?
    /// 1 is the highest priority; default 5.
    package var priority: Int
    /// Which requests the stub answers.
    package var request: RequestPattern
    /// What it answers.
    package var response: ResponseDefinition
    /// Free-form data kept with the stub (WireMock's `metadata`).
    package var metadata: JSONValue?
    /// The upstream base URL the stub was recorded from, e.g. `http://127.0.0.1:9000`: the string under
    /// ``recordedFromKey`` in ``metadata`` when it is an `http` or `https` URL. Served bodies and `Location`
    /// headers have that upstream's links pointed at the serving daemon (``LinkRewriter``), whatever upstream
    /// the daemon is configured with now.
    package var recordedUpstream: String? {
        guard let text = metadata?[StubMapping.recordedFromKey]?.stringValue,
            text.hasPrefix("http://") || text.hasPrefix("https://")
        else { return nil }
        return text
    }

    /// The `metadata` member a recording names its upstream base URL in: `"metadata": {"recordedFrom":
    /// "https://pokeapi.co"}`.
    package static let recordedFromKey = "recordedFrom"
    /// The stub's part in a scenario, if any.
    package var scenario: ScenarioRule?
    /// Where the stub came from.
    package var source: Source
    /// The bytes the stub was read from (see ``definition``).
    package var definitionSource: StubDefinitionSource
    /// What the stub holds of the daemon's ``MemoryBudget`` (a stub added through the admin API), given back
    /// when the last copy of the stub is gone.
    var memoryCharge: MemoryCharge?
    /// The problems that keep the stub from answering as its mapping file says, each naming the file relative
    /// to the stub root and the line: a feature pokestub lacks, a template that does not parse, a body file it
    /// cannot serve. When there are any, the stub answers every request it matches with 500 naming them (see
    /// ``StubLoader``); empty for a stub served as written.
    package internal(set) var warnings: [StubLoadProblem] = []

    /// The JSON the stub was read from, with `id` and `uuid` filled in: what the admin API shows. Parsed from
    /// ``definitionSource`` on each use.
    package var definition: JSONValue { definitionSource.mapping(id: id) }

    /// The default priority (WireMock's).
    package static let defaultPriority = 5

    /// Where a stub came from.
    package enum Source: Sendable, Hashable {
        /// A file under the stub root's `mappings/`, with its path relative to the stub root.
        case file(String)
        /// The admin API, at run time.
        case runtime
    }

    /// The fields a stub mapping may have.
    package static let fieldNames = [
        "id", "uuid", "name", "priority", "request", "response", "metadata", "persistent", "scenarioName",
        "requiredScenarioState", "newScenarioState", "insertionIndex", "postServeActions",
    ]
}

extension StubMapping {
    /// Reads a stub mapping from JSON.
    ///
    /// - Parameters:
    ///   - json: The mapping object.
    ///   - defaultID: The id to use when the mapping has none.
    ///   - source: Where it came from.
    ///   - bodyFiles: Where `bodyFileName` is looked up.
    ///   - definitionSource: The bytes `json` was parsed from, kept for ``definition``; default `json`
    ///     serialised. A `jsonBody` is served as these bytes write it (compacted).
    ///   - text: The bytes `json` was parsed from when they are not `definitionSource` (a mapping the admin
    ///     API received), for the `jsonBody` as written.
    ///   - globalResponseTemplating: Whether the response is a template even without the
    ///     `response-template` transformer (WireMock's `--global-response-templating`).
    /// - Throws: ``StubDefinitionError`` naming the field that is wrong or not supported.
    package init(
        json: JSONValue, defaultID: UUID, source: Source, bodyFiles: BodyFileStore,
        definitionSource: StubDefinitionSource? = nil, text: Data? = nil, globalResponseTemplating: Bool = false
    ) throws(StubDefinitionError) {
        var object = try StrictObject(json, what: "a stub mapping")
        var id = defaultID
        for key in ["id", "uuid"] {
            if let text = try object.string(key) {
                guard let parsed = UUID(stubIDText: text) else {
                    throw StubDefinitionError("is not a UUID: \(text.debugDescription)", keyPath: [key])
                }
                id = parsed
            }
        }
        self.id = id
        name = try object.string("name")
        priority = try object.int("priority") ?? StubMapping.defaultPriority
        guard priority >= 1 else {
            throw StubDefinitionError("must be 1 or more (1 is the highest priority)", keyPath: ["priority"])
        }
        metadata = object.take("metadata")
        let scenarioName = try object.string("scenarioName")
        let requiredState = try object.string("requiredScenarioState")
        let newState = try object.string("newScenarioState")
        if let scenarioName {
            scenario = ScenarioRule(name: scenarioName, requiredState: requiredState, newState: newState)
        } else if requiredState != nil || newState != nil {
            throw StubDefinitionError(
                "needs scenarioName: the state belongs to a scenario",
                keyPath: [requiredState != nil ? "requiredScenarioState" : "newScenarioState"])
        }
        _ = try object.bool("persistent")
        // Bookkeeping WireMock writes into saved mappings: its own insertion counter (the load order decides
        // here, as it does for WireMock reading files) and an empty list of post-serve actions. Actions
        // themselves (webhooks) would change behaviour, so they are refused.
        if let index = object.take("insertionIndex"), index.intValue == nil {
            throw StubDefinitionError("must be a whole number, not \(index.typeName)", keyPath: ["insertionIndex"])
        }
        if let actions = object.take("postServeActions") {
            let isEmpty =
                switch actions {
                case .array(let items): items.isEmpty
                case .object(let members): members.isEmpty
                default: false
                }
            guard isEmpty else {
                throw StubDefinitionError(
                    WireMockFeatures.prefix + "post-serve actions (webhooks); only an empty list is accepted",
                    keyPath: ["postServeActions"], failsWhenHit: true)
            }
        }
        guard let requestJSON = object.take("request") else {
            throw StubDefinitionError("is missing", keyPath: ["request"])
        }
        do { request = try RequestPattern(json: requestJSON) } catch { throw error.nested(under: "request") }
        let responseJSON = object.take("response") ?? .object([:])
        var jsonBodyText: Data?
        if case .object(let members) = responseJSON, members["jsonBody"] != nil {
            let path: [JSONText.PathComponent] = [.key("response"), .key("jsonBody")]
            if let text {
                jsonBodyText = JSONText.value(at: path, in: text)
            } else if let definitionSource {
                let prefix: [JSONText.PathComponent] =
                    definitionSource.item.map { [.key("mappings"), .index($0)] } ?? []
                jsonBodyText = JSONText.value(at: prefix + path, in: definitionSource.data)
            }
        }
        do {
            response = try ResponseDefinition(
                json: responseJSON, bodyFiles: bodyFiles, globalTemplating: globalResponseTemplating,
                jsonBodyText: jsonBodyText)
        } catch { throw error.nested(under: "response") }
        try object.rejectUnknown(supported: StubMapping.fieldNames)
        self.source = source
        self.definitionSource = definitionSource ?? StubDefinitionSource(json: json)
    }

    /// Derives a stable id from a text (a file path), so stubs without an id keep the same one across loads.
    package static func derivedID(from text: String) -> UUID {
        // Two 64-bit FNV-1a hashes with different offsets, laid out as a version-8 (custom) UUID, RFC 9562 §5.8.
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        let high = fnv(0xcbf2_9ce4_8422_2325)
        let low = fnv(0x8422_2325_cbf2_9ce4)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

extension RequestPattern {
    /// Reads a request pattern from JSON.
    ///
    /// - Throws: ``StubDefinitionError`` naming the field.
    package init(json: JSONValue) throws(StubDefinitionError) {
        var object = try StrictObject(json, what: "request")
        self.init()
        if let method = try object.string("method") {
            // The engine serves exactly the RFC 9110 tokens (§9.1) and records what it serves, so the loader
            // takes the same methods: every recording it writes loads, and no stub waits for a method no
            // request can carry.
            guard HTTPSyntax.isToken(method) else {
                throw StubDefinitionError(
                    "is not an HTTP method (an RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~): "
                        + method.debugDescription, keyPath: ["method"])
            }
            self.method = method == "ANY" ? nil : method
        }
        let urlFields = URLPattern.fieldNames.filter { object.keys.contains($0) }
        guard urlFields.count <= 1 else {
            throw StubDefinitionError(
                "has \(urlFields.joined(separator: " and ")); a request pattern takes at most one",
                keyPath: [urlFields[1]])
        }
        if let field = urlFields.first, let value = try object.string(field) {
            url = try URLPattern(field: field, value: value)
        }
        for (field, keyPath) in [("queryParameters", \RequestPattern.queryParameters), ("headers", \.headers)] {
            guard let members = try object.object(field) else { continue }
            var patterns: [String: MultiValuePattern] = [:]
            for (name, value) in members {
                do { patterns[name] = try MultiValuePattern(json: value) } catch {
                    throw error.nested(under: name).nested(under: field)
                }
            }
            self[keyPath: keyPath] = patterns
        }
        if let value = object.take("bodyPatterns") {
            bodyPatterns += try StringValuePattern.bodyPatterns(from: value)
        }
        try readCredentials(from: &object)
        if let value = object.take("multipartPatterns") {
            multipartPatterns = try MultipartPattern.list(from: value)
        }
        try object.rejectUnknown(supported: RequestPattern.fieldNames)
    }

    /// The JSON form, as WireMock writes it.
    package var json: JSONValue {
        var members: [String: JSONValue] = ["method": .string(method ?? "ANY")]
        if let url {
            let field = url.field
            members[field.name] = .string(field.value)
        }
        if !queryParameters.isEmpty { members["queryParameters"] = .object(queryParameters.mapValues(\.json)) }
        if !headers.isEmpty { members["headers"] = .object(headers.mapValues(\.json)) }
        if !bodyPatterns.isEmpty { members["bodyPatterns"] = .array(bodyPatterns.map(\.json)) }
        addCredentials(to: &members)
        if !multipartPatterns.isEmpty { members["multipartPatterns"] = .array(multipartPatterns.map(\.json)) }
        return .object(members)
    }
}
