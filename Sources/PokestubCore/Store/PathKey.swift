/// A literal path as a ``StubIndex`` key: its hash is computed once and compared before its text.
///
/// A dictionary with `String` keys compares the text of every key in the run of occupied buckets where a
/// lookup's hash lands; for a path no stub has (every miss) that run can be tens of keys long, depending on
/// the process's hash seed. Comparing the stored
/// hashes first leaves one text comparison for a hit and almost none for a miss.
struct PathKey: Hashable, Sendable {
    /// The path.
    let path: String
    /// `path`'s hash value in this process.
    let pathHash: Int

    init(_ path: String) {
        self.path = path
        pathHash = path.hashValue
    }

    static func == (lhs: PathKey, rhs: PathKey) -> Bool {
        lhs.pathHash == rhs.pathHash && lhs.path == rhs.path
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(pathHash)
    }
}
