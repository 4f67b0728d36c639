import Foundation
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the response bodies named by `bodyFileName` in a stub root's `__files/` folder, refusing any name
/// that would resolve outside it. Each file is checked when its stub loads and read at first use
/// (``BodyFile``); stubs naming the same file share one ``BodyFile`` and so one copy of its bytes.
/// Safe to use from several threads at once (the loader parses mapping files in parallel).
package final class BodyFileStore: Sendable {
    /// The `__files` folder, or `nil` when bodies cannot come from files (stubs made at run time without a
    /// stub root).
    package let root: URL?
    /// The root with symbolic links resolved.
    private let resolvedRoot: String?
    private let files = Locked<[String: BodyFile]>([:])
    /// Folders under `__files` already resolved, by their name relative to it ("" for `__files` itself).
    private let folders = Locked<[String: String]>([:])
    /// The names of body files about to be written (``RecordingWriter/commit(_:durability:)``).
    private let toBeWritten: Set<String>

    /// Creates a store over a `__files` folder.
    ///
    /// - Parameters:
    ///   - root: The `__files` folder, or `nil` when bodies cannot come from files.
    ///   - toBeWritten: Names of body files about to be written under `root`: each is taken for the regular file
    ///     it will be, when its folder, as far as it exists, resolves inside `root` (what a stub file is checked
    ///     with before its body file is written, ``RecordingWriter/check(_:)``).
    package init(root: URL?, toBeWritten: Set<String> = []) {
        self.root = root?.standardizedFileURL
        resolvedRoot = root.map { realPathOfExistingPart($0.standardizedFileURL.path) }
        self.toBeWritten = toBeWritten
    }

    /// The longest body file name, in bytes: a path under `__files`, and Linux's `PATH_MAX` is 4,096 bytes.
    /// A templated name may be as long as a response (`{{request.body}}`), and checking and quoting one of
    /// megabytes took seconds.
    package static let maxNameBytes = 4_096

    /// The body file with this name, checked but not read.
    ///
    /// - Parameter name: A relative path with `/` separators, e.g. `pokemon/1.json`.
    /// - Throws: ``StubDefinitionError`` when the name is longer than ``maxNameBytes``, absolute, contains
    ///   `..`, a NUL or a backslash, leads through a symbolic link out of the folder, or names no regular file.
    package func bodyFile(named name: String) throws(StubDefinitionError) -> BodyFile {
        guard name.utf8.count <= BodyFileStore.maxNameBytes else {
            throw StubDefinitionError(
                "a body file name of \(name.utf8.count) bytes is longer than \(BodyFileStore.maxNameBytes) (PATH_MAX)")
        }
        if let known = files.withLock({ $0[name] }) { return known }
        guard let root, let resolvedRoot else {
            throw StubDefinitionError("body files need a stub root (start the server with a stubs folder)")
        }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\0"), !name.contains("\\"),
            !components.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty })
        else {
            throw StubDefinitionError("\(name.debugDescription) must be a relative path inside __files without ..")
        }
        if toBeWritten.contains(name) {
            // Its folder as far as it exists; the rest is made as plain folders, and the file renamed into place.
            let slash = name.lastIndex(of: "/")
            let folder = realPathOfExistingPart(root.path + (slash.map { "/" + name[..<$0] } ?? ""))
            guard folder == resolvedRoot || folder.hasPrefix(resolvedRoot + "/") else {
                throw BodyFileStore.outside(name)
            }
            let leaf = slash.map { String(name[name.index(after: $0)...]) } ?? name
            return BodyFile(name: name, path: folder + "/" + leaf, root: resolvedRoot)
        }
        let (resolved, status) = try resolve(name, root: root.path, resolvedRoot: resolvedRoot)
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw StubDefinitionError("cannot read body file __files/\(name): not a regular file")
        }
        let file = BodyFile(name: name, path: resolved, root: resolvedRoot)
        // Two threads may check the same name at once: both get the first one stored.
        return files.withLock { files in
            if let stored = files[name] { return stored }
            files[name] = file
            return file
        }
    }

    /// The body file a templated `bodyFileName` names: the rendered text with `.`, `..` and empty components
    /// resolved as path text, the way WireMock 2.35 resolves it (`"../__files{{request.url}}"` rendered for
    /// `/pages/1.json` names `pages/1.json`), then checked as ``bodyFile(named:)`` checks a name, symbolic
    /// links followed. Where the text leads decides, not what it holds: `..` that stays inside `__files` is
    /// fine, one that leaves it is refused.
    ///
    /// - Parameter rendered: The rendered name, relative to `__files/`.
    /// - Throws: ``StubDefinitionError`` when the name is longer than ``maxNameBytes``, absolute (WireMock
    ///   2.35 refuses those too), holds a NUL or a backslash, leads outside `__files` once resolved, or names
    ///   no regular file inside it (a symbolic link out of it included).
    package func bodyFile(rendered: String) throws(StubDefinitionError) -> BodyFile {
        guard rendered.utf8.count <= BodyFileStore.maxNameBytes else { return try bodyFile(named: rendered) }
        guard let root else { return try bodyFile(named: rendered) }
        guard !rendered.hasPrefix("/") else {
            throw StubDefinitionError("\(rendered.debugDescription) is absolute; it must be a path inside __files")
        }
        guard !rendered.contains("\0"), !rendered.contains("\\"),
            let name = BodyFileStore.resolvedName(rendered, under: root.path)
        else {
            throw StubDefinitionError(
                "\(rendered.debugDescription) must be a relative path inside __files (it leads outside once "
                    + ". and .. are resolved)")
        }
        return try bodyFile(named: name)
    }

    /// `name` relative to `folder` once `.`, `..` and empty components are resolved as path text, or `nil`
    /// when that leads outside `folder` or to `folder` itself.
    ///
    /// - Parameters:
    ///   - name: A relative path.
    ///   - folder: An absolute path without `.`, `..` or a trailing `/` (a standardised file URL's path).
    static func resolvedName(_ name: String, under folder: String) -> String? {
        let base = folder.split(separator: "/")
        var components = base
        for component in name.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        guard components.count > base.count, components.starts(with: base) else { return nil }
        return components[base.count...].joined(separator: "/")
    }

    /// The path of `name` with symbolic links resolved, checked to lie inside `__files`, and its `stat`.
    ///
    /// Its folder is resolved once per store (`realpath` reads each component of a path as a link: 5,500
    /// `readlink` calls for the 848 shipped body files, a tenth of the system CPU time of loading them); the
    /// file itself is looked at with `lstat`, and only a link is resolved in full.
    private func resolve(
        _ name: String, root: String, resolvedRoot: String
    ) throws(StubDefinitionError) -> (String, stat) {
        let unreadable = { () -> StubDefinitionError in
            StubDefinitionError("cannot read body file __files/\(name): \(String(cString: strerror(errno)))")
        }
        let escapes = BodyFileStore.outside(name)
        let slash = name.lastIndex(of: "/")
        let folder = slash.map { String(name[..<$0]) } ?? ""
        let resolvedFolder: String
        if let known = folders.withLock({ $0[folder] }) {
            resolvedFolder = known
        } else if folder.isEmpty {
            resolvedFolder = resolvedRoot
        } else {
            guard let found = realPath(root + "/" + folder) else { throw unreadable() }
            guard found == resolvedRoot || found.hasPrefix(resolvedRoot + "/") else { throw escapes }
            folders.withLock { $0[folder] = found }
            resolvedFolder = found
        }
        let leaf = slash.map { String(name[name.index(after: $0)...]) } ?? name
        var status = stat()
        guard lstat(resolvedFolder + "/" + leaf, &status) == 0 else { throw unreadable() }
        guard status.st_mode & S_IFMT == S_IFLNK else { return (resolvedFolder + "/" + leaf, status) }
        guard let resolved = realPath(root + "/" + name) else { throw unreadable() }
        guard resolved.hasPrefix(resolvedRoot + "/") else { throw escapes }
        guard stat(resolved, &status) == 0 else { throw unreadable() }
        return (resolved, status)
    }

    /// The problem of a name that leads out of `__files`.
    private static func outside(_ name: String) -> StubDefinitionError {
        StubDefinitionError("\(name.debugDescription) resolves outside __files (through a symbolic link)")
    }

    /// The bytes of a body file, read now (``bodyFile(named:)`` then ``BodyFile/load()``).
    ///
    /// - Throws: ``StubDefinitionError`` as ``bodyFile(named:)`` does, or when the file cannot be read.
    package func body(named name: String) throws(StubDefinitionError) -> ResponseBody {
        try bodyFile(named: name).load()
    }
}
