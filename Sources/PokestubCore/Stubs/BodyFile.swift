import Foundation
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response body kept in a file under `__files/` (a stub's `bodyFileName`), read the first time a request
/// needs it and then kept, unchanged, for as long as the stub set it belongs to is serving.
///
/// Reading at first use rather than at load is what WireMock does too (it reads body files per request). It
/// keeps a daemon's memory to the bodies its clients actually ask for: the shipped tree holds 22 MB of bodies,
/// and a test run touches a few of them. It also makes loading a stub tree a matter of its mapping files.
/// When the stub set is replaced (a reload, an added or removed stub), the new set reads the file again, so
/// an edited body file is served after the reload its change triggers.
///
/// The name was checked when the stub loaded (inside `__files`, a regular file; see ``BodyFileStore``) and is
/// checked again when the file is read, since the tree may have changed in between: a body file replaced by a
/// symbolic link to `/etc/passwd` after the load would otherwise be served. A file that is gone, unreadable or
/// now outside `__files` at first use is answered with a 500 naming it (see ``response(with:)``), and read
/// again on the next request.
package final class BodyFile: Sendable {
    /// The name relative to `__files/`, e.g. `pokemon/1.json`.
    package let name: String
    /// The file's path with symbolic links resolved, as it was at load.
    package let path: String
    /// The `__files` folder with symbolic links resolved; the file must still resolve inside it when read.
    package let root: String
    private let loaded = Locked(Loaded())

    /// The bytes once read, and the bodies made from them for a serving target (upstream links pointed at a
    /// base URL, ``response(with:variant:make:)``), kept under one lock so a request reads both at once.
    private struct Loaded {
        var body: ResponseBody?
        var variants: [ResponseBody.VariantKey: ResponseBody] = [:]
    }

    /// Creates a body file; nothing is read yet.
    ///
    /// - Parameters:
    ///   - name: The name relative to `__files/`.
    ///   - path: The resolved path, already checked to lie inside `root`.
    ///   - root: The resolved `__files` folder.
    package init(name: String, path: String, root: String) {
        self.name = name
        self.path = path
        self.root = root
    }

    /// Body files of this many bytes (8 MiB) or more are not read into memory: each response sends them from
    /// the file (``StreamedFile``), opened and checked again per request, and their upstream links are not
    /// rewritten. Smaller ones are read once and kept, and their links rewritten.
    package static let streamingThreshold = 8 << 20

    /// Whether the bytes have been read.
    package var isLoaded: Bool { loaded.withLock { $0.body != nil } }

    /// The bytes: read on the first call, the same object on every later one.
    ///
    /// - Throws: ``StubDefinitionError`` when the file cannot be read (`cannot read body file __files/…`), or
    ///   now resolves outside `__files` or to something other than a regular file.
    package func load() throws(StubDefinitionError) -> ResponseBody {
        if let body = loaded.withLock({ $0.body }) { return body }
        let (descriptor, _) = try openChecked()
        defer { close(descriptor) }
        let body = ResponseBody(try read(descriptor))
        // When two requests read it at once, both use the first one stored. The file is read outside the lock.
        return loaded.withLock { loaded in
            if let first = loaded.body { return first }
            loaded.body = body
            return body
        }
    }

    /// Reads the file after checking again that it resolves inside `__files`; the last component is opened
    /// without following a symbolic link (`O_NOFOLLOW`), so a link swapped in after the check is refused too,
    /// and without waiting (`O_NONBLOCK`), so a named pipe or device swapped in is refused as not a regular
    /// file instead of blocking the server thread in `open` (open(2): a FIFO opened for reading waits for a
    /// writer unless `O_NONBLOCK` is given).
    private func openChecked() throws(StubDefinitionError) -> (descriptor: Int32, size: Int) {
        guard let resolved = realPath(path) else { throw failure(String(cString: strerror(errno))) }
        guard resolved.hasPrefix(root + "/") else {
            throw StubDefinitionError("\(name.debugDescription) now resolves outside __files (through a symbolic link)")
        }
        let descriptor = open(resolved, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw failure("not a regular file")
        }
        return (descriptor, Int(status.st_size))
    }

    private func read(_ descriptor: Int32) throws(StubDefinitionError) -> Data {
        do {
            return try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() ?? Data()
        } catch {
            throw failure(error.localizedDescription)
        }
    }

    private func failure(_ reason: String) -> StubDefinitionError {
        StubDefinitionError("cannot read body file __files/\(name): \(reason)")
    }

    /// `response` with this file's bytes as its body (sent from the file when it is
    /// ``streamingThreshold`` bytes or more), or, when the file cannot be read, a 500 that names it:
    ///
    /// ```json
    /// {"status": 500, "error": "body file unreadable", "bodyFileName": "pokemon/1.json",
    ///  "message": "cannot read body file __files/pokemon/1.json: …"}
    /// ```
    package func response(with response: HTTPResponse) -> HTTPResponse {
        if let body = loaded.withLock({ $0.body }) {
            var result = response
            result.body = body
            return result
        }
        return firstResponse(with: response)
    }

    /// ``response(with:)`` with the body `make` makes from the file's bytes for `key` (its upstream links
    /// pointed at a serving base URL; `nil` from `make` keeps the bytes as they are), made once per key and kept
    /// with the bytes: once both are, one lock. A body sent from the file, or a 500 for a file that cannot be
    /// read, is never made into another.
    ///
    /// - Parameters:
    ///   - response: The stub's response without its body.
    ///   - key: What the made body is for.
    ///   - make: Makes the body for `key` from the bytes, or `nil` for the bytes themselves.
    /// - Returns: `response` with the body for `key`.
    package func response(
        with response: HTTPResponse, variant key: ResponseBody.VariantKey, make: (ResponseBody) -> ResponseBody?
    ) -> HTTPResponse {
        var result = response
        let known = loaded.withLock { loaded in loaded.body.map { ($0, loaded.variants[key]) } }
        let body: ResponseBody
        if let (loadedBody, variant) = known {
            if let variant {
                result.body = variant
                return result
            }
            body = loadedBody
        } else {
            result = firstResponse(with: response)
            // Made into another only when it is the file's bytes (not a 500, not a file sent from disk).
            guard result.streamedFile == nil, let read = loaded.withLock({ $0.body }), read === result.body
            else { return result }
            body = read
        }
        let made = make(body) ?? body
        result.body = loaded.withLock { loaded in
            if let first = loaded.variants[key] { return first }
            loaded.variants[key] = made
            return made
        }
        return result
    }

    /// `response` with the file's bytes, read now (or sent from the file), or the 500 that names the file.
    private func firstResponse(with response: HTTPResponse) -> HTTPResponse {
        do {
            var result = response
            let (descriptor, size) = try openChecked()
            if size >= BodyFile.streamingThreshold {
                result.streamedFile = StreamedFile(descriptor: descriptor, size: size)
                return result
            }
            close(descriptor)
            result.body = try load()
            return result
        } catch {
            return .json(
                .object([
                    "status": .integer(500), "error": .string("body file unreadable"), "bodyFileName": .string(name),
                    "message": .string(error.message),
                ]), status: 500)
        }
    }
}
