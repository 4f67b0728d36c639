import Foundation

/// Reads response bodies named by `bodyFileName` from a stub root's `__files/` folder, refusing any name that
/// would resolve outside it, and reading each file once however many stubs name it.
///
/// Not thread-safe: one store serves one load, on one thread.
public final class BodyFileStore {
    /// The `__files` folder, or `nil` when bodies cannot come from files (stubs made at run time without a
    /// stub root).
    public let root: URL?
    private var cache: [String: ResponseBody] = [:]

    /// Creates a store over a `__files` folder.
    public init(root: URL?) {
        self.root = root?.standardizedFileURL
    }

    /// The root with symbolic links resolved, worked out once per load.
    private lazy var resolvedRoot: String? = root?.resolvingSymlinksInPath().path

    /// The bytes of a body file.
    ///
    /// - Parameter name: A relative path with `/` separators, e.g. `pokemon/1.json`.
    /// - Throws: ``StubDefinitionError`` when the name is absolute, contains `..`, a NUL or a backslash, leads
    ///   through a symbolic link out of the folder, or the file cannot be read.
    public func body(named name: String) throws(StubDefinitionError) -> ResponseBody {
        if let cached = cache[name] { return cached }
        guard let root, let resolvedRoot else {
            throw StubDefinitionError("body files need a stub root (start the server with a stubs folder)")
        }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\0"), !name.contains("\\"),
            !components.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty })
        else {
            throw StubDefinitionError("\(name.debugDescription) must be a relative path inside __files without ..")
        }
        let file = root.appendingPathComponent(name)
        let resolved = file.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(resolvedRoot + "/") else {
            throw StubDefinitionError("\(name.debugDescription) resolves outside __files (through a symbolic link)")
        }
        let body: ResponseBody
        do {
            body = try ResponseBody(contentsOfFile: resolved)
        } catch {
            throw StubDefinitionError("cannot read body file __files/\(name): \(error.localizedDescription)")
        }
        cache[name] = body
        return body
    }
}
