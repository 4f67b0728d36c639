import Foundation
import Synchronization

/// A response body kept in a file under `__files/` (a stub's `bodyFileName`), read the first time a request
/// needs it and then kept, unchanged, for as long as the stub set it belongs to is serving.
///
/// Reading at first use rather than at load is what WireMock does too (it reads body files per request). It
/// keeps a daemon's memory to the bodies its clients actually ask for: the shipped tree holds 22 MB of bodies,
/// and a test run touches a few of them. It also makes loading a stub tree a matter of its mapping files.
/// When the stub set is replaced (a reload, an added or removed stub), the new set reads the file again, so
/// an edited body file is served after the reload its change triggers.
///
/// The name was checked when the stub loaded (inside `__files`, a regular file; see ``BodyFileStore``). A
/// file that is gone or unreadable at first use is answered with a 500 naming it (see ``response(with:)``),
/// and read again on the next request.
public final class BodyFile: Sendable {
    /// The name relative to `__files/`, e.g. `pokemon/1.json`.
    public let name: String
    /// The file's path with symbolic links resolved.
    public let path: String
    private let loaded = AtomicLazyReference<ResponseBody>()

    /// Creates a body file; nothing is read yet.
    ///
    /// - Parameters:
    ///   - name: The name relative to `__files/`.
    ///   - path: The resolved path, already checked to lie inside `__files/`.
    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }

    /// Whether the bytes have been read.
    public var isLoaded: Bool { loaded.load() != nil }

    /// The bytes: read on the first call, the same object on every later one.
    ///
    /// - Throws: ``StubDefinitionError`` when the file cannot be read (`cannot read body file __files/…`).
    public func load() throws(StubDefinitionError) -> ResponseBody {
        if let body = loaded.load() { return body }
        let body: ResponseBody
        do {
            body = try ResponseBody(contentsOfFile: path)
        } catch {
            throw StubDefinitionError("cannot read body file __files/\(name): \(error.localizedDescription)")
        }
        // When two requests read it at once, both use the first one stored.
        return loaded.storeIfNil(body)
    }

    /// `response` with this file's bytes as its body, or, when the file cannot be read, a 500 that names it:
    ///
    /// ```json
    /// {"status": 500, "error": "body file unreadable", "bodyFileName": "pokemon/1.json",
    ///  "message": "cannot read body file __files/pokemon/1.json: …"}
    /// ```
    public func response(with response: HTTPResponse) -> HTTPResponse {
        do {
            var result = response
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
