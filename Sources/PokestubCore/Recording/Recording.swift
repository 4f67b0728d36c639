import Foundation

/// One recorded exchange as it will be written: the mapping, and the body file when the body lives in
/// `__files/`.
package struct Recording: Sendable {
    /// The request's identity.
    package var key: RecordingKey
    /// Where the files go.
    package var fileName: RecordingFileName
    /// The stub's id, derived from the mapping path as the loader derives ids, so the stub keeps it across
    /// reloads and re-recordings.
    package var id: UUID
    /// The mapping, naming the body file through `bodyFileName` when ``bodyFile`` is set.
    package var mapping: JSONValue
    /// The body file, relative to `__files/`, when the body is not inside the mapping.
    package var bodyFile: BodyFileToWrite?
    /// The upstream's JSON text when the body is the mapping's `jsonBody`: written in the mapping file in its
    /// own member order, numbers and escapes (``JSONText/pretty(_:level:)``), so the stub serves it compacted
    /// as the upstream wrote it, byte for byte when the upstream sent compact JSON.
    package var jsonBodyText: Data? = nil

    /// A body file to write under `__files/`.
    package struct BodyFileToWrite: Sendable, Hashable {
        /// The path relative to `__files/`, the mapping's `bodyFileName`.
        package var name: String
        /// The bytes to write.
        package var data: Data

        /// Creates a body file.
        ///
        /// - Parameters:
        ///   - name: The path relative to `__files/`.
        ///   - data: The bytes.
        package init(name: String, data: Data) {
            self.name = name
            self.data = data
        }
    }

    /// The mapping file's bytes: canonical pretty JSON (``CanonicalJSON``) with a final newline, stable for
    /// review, and the `jsonBody` as the upstream wrote it (``jsonBodyText``), indented the same way.
    package var mappingData: Data {
        guard let jsonBodyText, case .object(var members) = mapping, case .object(var response)? = members["response"]
        else { return CanonicalJSON.pretty(mapping) }
        response["jsonBody"] = .string(Recording.jsonBodyPlaceholder)
        members["response"] = .object(response)
        let canonical = CanonicalJSON.pretty(.object(members))
        // The placeholder as CanonicalJSON writes it: its control characters escaped, so no other string of a
        // recording (header values and patterns hold none) can be written the same.
        let written = Data(#""\u0001pokestub-jsonBody\u0001""#.utf8)
        guard let range = canonical.range(of: written) else { return CanonicalJSON.pretty(mapping) }
        var data = canonical
        // `jsonBody` is a member of `response`, a member of the mapping: indentation level 2.
        data.replaceSubrange(range, with: JSONText.pretty(jsonBodyText, level: 2))
        return data
    }

    /// What `jsonBody` holds while the rest of the mapping is written.
    private static let jsonBodyPlaceholder = "\u{1}pokestub-jsonBody\u{1}"

    /// The mapping file to write: ``mappingData`` at ``RecordingFileName/mappingPath``, with ``bodyFile``.
    package var stubFile: StubFile {
        StubFile(path: fileName.mappingPath, data: mappingData, bodyFile: bodyFile)
    }

    /// The mapping's bytes with the body inside (`base64Body` instead of `bodyFileName`), for a recording kept
    /// only in memory; ``mappingData`` when the body is inside already.
    package var inlineMappingData: Data {
        guard let bodyFile, case .object(var members) = mapping, case .object(var response)? = members["response"]
        else { return mappingData }
        response.removeValue(forKey: "bodyFileName")
        response["base64Body"] = .string(bodyFile.data.base64EncodedString())
        members["response"] = .object(response)
        return CanonicalJSON.pretty(.object(members))
    }
}
