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
///
/// A load hands the store the regular files one walk of `__files` found (``init(root:toBeWritten:listed:)``):
/// a name among them is taken without a look at the disk, every other name (a symbolic link, a folder, a file
/// made after the walk, a hidden one) is looked at as before. The loader forgets the listing when its stubs are
/// made (``forgetListing()``), so names rendered by templates at serve time are always looked at on disk.
package final class BodyFileStore: Sendable {
    /// The `__files` folder, or `nil` when bodies cannot come from files (stubs made at run time without a
    /// stub root).
    package let root: URL?
    /// ``root``'s path.
    private let rootPath: String?
    /// The root with symbolic links resolved.
    private let resolvedRoot: String?
    private let files = Locked<[String: BodyFile]>([:])
    /// What a name is looked up in before the disk, and how often the disk was asked.
    private let lookup: Locked<Lookup>
    /// The names of body files about to be written (``RecordingWriter/commit(_:durability:)``).
    private let toBeWritten: Set<String>

    private struct Lookup {
        /// The regular files the load's walk found, by name relative to `__files`; `nil` once forgotten.
        var listed: Set<String>?
        /// Folders under `__files` already resolved, by their name relative to it ("" for `__files` itself).
        var folders: [String: String] = [:]
        /// How many names were looked at on disk (``diskLookups``).
        var diskLookups = 0
    }

    /// Creates a store over a `__files` folder.
    ///
    /// - Parameters:
    ///   - root: The `__files` folder, or `nil` when bodies cannot come from files.
    ///   - toBeWritten: Names of body files about to be written under `root`: each is taken for the regular file
    ///     it will be, when its folder, as far as it exists, resolves inside `root` (what a stub file is checked
    ///     with before its body file is written, ``RecordingWriter/check(_:)``).
    ///   - listed: The regular files under `root`, by name relative to it (`pokemon/1.json`), that a walk
    ///     reached through folders, never through a symbolic link: each is taken as the file
    ///     `<root resolved>/<name>` without looking at it on disk, until ``forgetListing()``. Names are compared
    ///     byte for byte, as the file system does. `nil` (the default) looks at every name on disk.
    package init(root: URL?, toBeWritten: Set<String> = [], listed: Set<String>? = nil) {
        self.root = root?.standardizedFileURL
        rootPath = self.root?.path
        resolvedRoot = root.map { realPathOfExistingPart($0.standardizedFileURL.path) }
        self.toBeWritten = toBeWritten
        lookup = Locked(Lookup(listed: listed))
    }

    /// Drops the listing given at creation: from now on every name not yet looked up is looked at on disk (the
    /// tree may have changed since the walk).
    package func forgetListing() {
        lookup.withLock { $0.listed = nil }
    }

    /// How many names were looked at on disk (an `lstat`, and a `realpath` of their folder the first time it
    /// is met) rather than found in the listing.
    package var diskLookups: Int { lookup.withLock { $0.diskLookups } }

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
        guard let rootPath, let resolvedRoot else {
            throw StubDefinitionError("body files need a stub root (start the server with a stubs folder)")
        }
        guard BodyFileStore.isPlainRelativePath(name) else {
            throw StubDefinitionError("\(name.debugDescription) must be a relative path inside __files without ..")
        }
        if toBeWritten.contains(name) {
            // Its folder as far as it exists; the rest is made as plain folders, and the file renamed into place.
            let slash = name.lastIndex(of: "/")
            let folder = realPathOfExistingPart(rootPath + (slash.map { "/" + name[..<$0] } ?? ""))
            guard folder == resolvedRoot || folder.hasPrefix(resolvedRoot + "/") else {
                throw BodyFileStore.outside(name)
            }
            let leaf = slash.map { String(name[name.index(after: $0)...]) } ?? name
            return BodyFile(name: name, path: folder + "/" + leaf, root: resolvedRoot)
        }
        let file: BodyFile
        if let resolved = try resolve(name, root: rootPath, resolvedRoot: resolvedRoot) {
            file = BodyFile(name: name, path: resolved, root: resolvedRoot)
        } else {
            file = BodyFile(name: name, path: resolvedRoot + "/" + name, root: resolvedRoot)
        }
        // Two threads may check the same name at once: both get the first one stored.
        return files.withLock { files in
            if let stored = files[name] { return stored }
            files[name] = file
            return file
        }
    }

    /// Whether `name` is a relative path of plain components: not empty, not starting with `/`, without a NUL
    /// or a backslash, and with no component that is empty, `.` or `..`. Read byte by byte: none of these
    /// bytes is part of a longer UTF-8 sequence.
    static func isPlainRelativePath(_ name: String) -> Bool {
        var length = 0
        var onlyDots = true
        for byte in name.utf8 {
            switch byte {
            case 0, UInt8(ascii: "\\"):
                return false
            case UInt8(ascii: "/"):
                guard length > 0, !(onlyDots && length <= 2) else { return false }
                length = 0
                onlyDots = true
            default:
                length += 1
                if byte != UInt8(ascii: ".") { onlyDots = false }
            }
        }
        return length > 0 && !(onlyDots && length <= 2)
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

    /// The path of `name` with symbolic links resolved, checked to lie inside `__files` and to be a regular
    /// file; `nil` when the listing holds it (its path is then `resolvedRoot/name`).
    ///
    /// Its folder is resolved once per store (`realpath` reads each component of a path as a link: 5,500
    /// `readlink` calls for the 848 shipped body files, a tenth of the system CPU time of loading them); the
    /// file itself is looked at with `lstat`, and only a link is resolved in full.
    private func resolve(
        _ name: String, root: String, resolvedRoot: String
    ) throws(StubDefinitionError) -> String? {
        let unreadable = { () -> StubDefinitionError in
            StubDefinitionError("cannot read body file __files/\(name): \(String(cString: strerror(errno)))")
        }
        let slash = name.lastIndex(of: "/")
        let folder = slash.map { String(name[..<$0]) } ?? ""
        let (isListed, known) = lookup.withLock { lookup -> (Bool, String?) in
            // Found by hashing, which treats canonically equivalent texts as one; the file system does not.
            if let listed = lookup.listed, let index = listed.firstIndex(of: name),
                listed[index].utf8.elementsEqual(name.utf8)
            {
                return (true, nil)
            }
            lookup.diskLookups += 1
            return (false, lookup.folders[folder])
        }
        if isListed { return nil }
        let resolvedFolder: String
        if let known {
            resolvedFolder = known
        } else if folder.isEmpty {
            resolvedFolder = resolvedRoot
        } else {
            guard let found = realPath(root + "/" + folder) else { throw unreadable() }
            guard found == resolvedRoot || found.hasPrefix(resolvedRoot + "/") else {
                throw BodyFileStore.outside(name)
            }
            lookup.withLock { $0.folders[folder] = found }
            resolvedFolder = found
        }
        let leaf = slash.map { String(name[name.index(after: $0)...]) } ?? name
        var status = stat()
        guard lstat(resolvedFolder + "/" + leaf, &status) == 0 else { throw unreadable() }
        let resolved: String
        if status.st_mode & S_IFMT == S_IFLNK {
            guard let target = realPath(root + "/" + name) else { throw unreadable() }
            guard target.hasPrefix(resolvedRoot + "/") else { throw BodyFileStore.outside(name) }
            guard stat(target, &status) == 0 else { throw unreadable() }
            resolved = target
        } else {
            resolved = resolvedFolder + "/" + leaf
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw StubDefinitionError("cannot read body file __files/\(name): not a regular file")
        }
        return resolved
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
