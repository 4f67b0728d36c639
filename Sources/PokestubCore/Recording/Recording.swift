import Foundation

/// One recorded exchange as it will be written: the mapping, and the body file when the body lives in
/// `__files/`.
public struct Recording: Sendable {
    /// The request's identity.
    public var key: RecordingKey
    /// Where the files go.
    public var fileName: RecordingFileName
    /// The stub's id, derived from the mapping path as the loader derives ids, so the stub keeps it across
    /// reloads and re-recordings.
    public var id: UUID
    /// The mapping, naming the body file through `bodyFileName` when ``bodyFile`` is set.
    public var mapping: JSONValue
    /// The body file, relative to `__files/`, when the body is not inside the mapping.
    public var bodyFile: BodyFileToWrite?
    /// The body's bytes and content type, to inline the body when nothing is written to disk.
    public var body: Data

    /// A body file to write under `__files/`.
    public struct BodyFileToWrite: Sendable, Hashable {
        /// The path relative to `__files/`, the mapping's `bodyFileName`.
        public var name: String
        /// The bytes to write.
        public var data: Data

        /// Creates a body file.
        ///
        /// - Parameters:
        ///   - name: The path relative to `__files/`.
        ///   - data: The bytes.
        public init(name: String, data: Data) {
            self.name = name
            self.data = data
        }
    }

    /// The mapping file's bytes: canonical pretty JSON (``CanonicalJSON``) with a final newline, stable for review.
    public var mappingData: Data { CanonicalJSON.pretty(mapping) }

    /// The mapping with the body inside (`base64Body` instead of `bodyFileName`), for recordings kept only
    /// in memory.
    public var inlineMapping: JSONValue {
        guard let bodyFile, case .object(var members) = mapping, case .object(var response)? = members["response"]
        else { return mapping }
        response.removeValue(forKey: "bodyFileName")
        response["base64Body"] = .string(bodyFile.data.base64EncodedString())
        members["response"] = .object(response)
        return .object(members)
    }
}
