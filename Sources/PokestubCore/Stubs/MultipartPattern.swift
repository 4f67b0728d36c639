/// A test on the parts of a multipart request body: WireMock's multipart value pattern, one item of a request
/// pattern's `multipartPatterns`.
///
/// In JSON: `{"matchingType": "ANY", "headers": {"Content-Disposition": {"contains": "name=\"info\""}},
/// "bodyPatterns": [{"equalToJson": {"a": 1}}]}`. With `ANY` (the default) one part must pass every header and
/// body test; with `ALL` every part must. `name` is kept and shown but, as in WireMock 2.35, not tested (checked
/// against its jar). A request whose body is not `multipart/*` (``MultipartBody``) passes no multipart
/// pattern.
package struct MultipartPattern: Sendable, Hashable {
    /// Whether one part or every part must pass.
    package enum MatchingType: String, Sendable, Hashable, CaseIterable {
        case any = "ANY"
        case all = "ALL"
    }

    /// The name WireMock's clients give the pattern; not tested.
    package var name: String?
    /// `ANY` or `ALL`.
    package var matchingType: MatchingType
    /// Tests on a part's header fields by name (names compare case-insensitively).
    package var headers: [String: StringValuePattern]
    /// Tests on a part's content, as text.
    package var bodyPatterns: [StringValuePattern]

    /// Creates a pattern.
    package init(
        name: String? = nil, matchingType: MatchingType = .any, headers: [String: StringValuePattern] = [:],
        bodyPatterns: [StringValuePattern] = []
    ) {
        self.name = name
        self.matchingType = matchingType
        self.headers = headers
        self.bodyPatterns = bodyPatterns
    }

    /// The fields a multipart pattern may have.
    package static let fieldNames = ["name", "matchingType", "headers", "bodyPatterns"]

    /// Whether the parts pass: one of them (`ANY`) or all of them (`ALL`).
    func matches(_ parts: [MultipartBody.Part]) -> Bool {
        switch matchingType {
        case .any: parts.contains { matches($0) }
        case .all: parts.allSatisfy { matches($0) }
        }
    }

    /// Whether one part passes every test.
    func matches(_ part: MultipartBody.Part) -> Bool {
        for (name, pattern) in headers where !MultipartPattern.anyValue(of: part, named: name, passes: pattern) {
            return false
        }
        if bodyPatterns.isEmpty { return true }
        let text = part.bodyText
        return bodyPatterns.allSatisfy { $0.matches(text) }
    }

    /// How far the parts are from passing, from 0 to 1: the closest part (`ANY`) or the farthest (`ALL`).
    func distance(_ parts: [MultipartBody.Part]) -> Double {
        let distances = parts.map { distance($0) }
        switch matchingType {
        case .any: return distances.min() ?? 1
        case .all: return distances.max() ?? 0
        }
    }

    private func distance(_ part: MultipartBody.Part) -> Double {
        var distances: [Double] = headers.map { name, pattern in
            let values = part.headers.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
            return values.isEmpty ? pattern.distance(nil) : values.map { pattern.distance($0) }.min() ?? 1
        }
        let text = part.bodyText
        distances += bodyPatterns.map { $0.distance(text) }
        return distances.isEmpty ? 0 : distances.reduce(0, +) / Double(distances.count)
    }

    private static func anyValue(
        of part: MultipartBody.Part, named name: String, passes pattern: StringValuePattern
    )
        -> Bool
    {
        var present = false
        for field in part.headers where field.name.caseInsensitiveEquals(name) {
            present = true
            if pattern.matches(field.value) { return true }
        }
        return present ? false : pattern.matches(nil)
    }

    /// `ANY part with header Content-Type equalTo "text/plain", body contains "x"`.
    package var summary: String {
        var tests = headers.sorted { $0.key < $1.key }.map { "header \($0.key) \($0.value.summary)" }
        tests += bodyPatterns.map { "body \($0.summary)" }
        return "\(matchingType.rawValue) part" + (name.map { " \($0.debugDescription)" } ?? "")
            + (tests.isEmpty ? "" : " with " + tests.joined(separator: ", "))
    }

    /// The JSON form, as WireMock writes it.
    package var json: JSONValue {
        var members: [String: JSONValue] = ["matchingType": .string(matchingType.rawValue)]
        if let name { members["name"] = .string(name) }
        if !headers.isEmpty { members["headers"] = .object(headers.mapValues(\.json)) }
        if !bodyPatterns.isEmpty { members["bodyPatterns"] = .array(bodyPatterns.map(\.json)) }
        return .object(members)
    }
}

extension MultipartPattern {
    /// Reads a pattern from its JSON form.
    ///
    /// - Throws: ``StubDefinitionError`` naming the field that is wrong.
    package init(json: JSONValue) throws(StubDefinitionError) {
        var object = try StrictObject(json, what: "a multipart pattern")
        self.init(name: try object.string("name"))
        if let type = try object.string("matchingType") {
            guard let parsed = MatchingType(rawValue: type) else {
                throw StubDefinitionError("must be ANY or ALL, not \(type.debugDescription)", keyPath: ["matchingType"])
            }
            matchingType = parsed
        }
        for (name, value) in try object.object("headers") ?? [:] {
            do { headers[name] = try StringValuePattern(json: value) } catch {
                throw error.nested(under: name).nested(under: "headers")
            }
        }
        if let value = object.take("bodyPatterns") {
            bodyPatterns += try StringValuePattern.bodyPatterns(from: value)
        }
        try object.rejectUnknown(supported: MultipartPattern.fieldNames)
    }

    /// Reads a request pattern's `multipartPatterns` array.
    static func list(from value: JSONValue) throws(StubDefinitionError) -> [MultipartPattern] {
        guard case .array(let items) = value else {
            throw StubDefinitionError("must be an array of multipart patterns", keyPath: ["multipartPatterns"])
        }
        var patterns: [MultipartPattern] = []
        for (index, item) in items.enumerated() {
            do { patterns.append(try MultipartPattern(json: item)) } catch {
                throw error.nested(under: "multipartPatterns[\(index)]")
            }
        }
        return patterns
    }
}
