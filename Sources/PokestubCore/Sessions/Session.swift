import Foundation
import PokestubLocking

/// One test job's private view of a shared daemon: its own runtime stubs and its own request journal,
/// reached under its own base path `/__sessions/{id}`.
///
/// Requests under the base path match the session's stubs first, then the stubs from disk, and land in the
/// session's journal only. Its admin API is the daemon's, scoped: `/__admin/sessions/{id}/mappings`,
/// `/__admin/sessions/{id}/requests`, and so on act on this session alone.
package final class Session: Sendable {
    /// The id: 24 lowercase hex digits (96 random bits), unguessable by other jobs.
    package let id: String
    /// The session's secret: 48 hex digits (192 random bits), told only to its creator, in the answer to
    /// `POST /__admin/sessions`. With ``SessionLimits/requiresSecrets`` its own admin routes need it.
    package let secret: String
    /// The request header that carries a session's secret: `Pokestub-Session-Secret`.
    package static let secretHeader = "Pokestub-Session-Secret"
    /// A name for people, e.g. the CI job's.
    package let name: String?
    /// When the session was made.
    package let createdAt: Date
    /// Seconds without requests after which the session ends.
    package let idleTimeoutSeconds: Int
    /// The session's runtime stubs.
    package let store: StubStore
    /// The session's request journal.
    package let journal: RequestJournal
    /// The near-miss reports of this session's recent misses: fewer and smaller than the daemon's (64
    /// reports, 1 MiB), as a daemon may hold hundreds of sessions.
    let nearMisses = NearMissCache(capacity: 64, maxReportBytes: 1 << 20)
    /// The admin API scoped to this session.
    package let admin: AdminAPI

    /// The path prefix of the session's requests: `/__sessions/{id}`.
    package var basePath: String { "\(Session.pathPrefix)/\(id)" }

    /// The path prefix of every session's requests.
    package static let pathPrefix = "/__sessions"

    init(
        name: String?, idleTimeoutSeconds: Int, limits: SessionLimits, info: ServerInfo, bodyFilesRoot: String?,
        journalBodyBudget: JournalBodyBudget? = nil, globalResponseTemplating: Bool = false, now: Date
    ) {
        id = Session.randomID()
        secret = Session.randomID() + Session.randomID()
        self.name = name
        createdAt = now
        self.idleTimeoutSeconds = idleTimeoutSeconds
        store = StubStore(root: nil, globalResponseTemplating: globalResponseTemplating)
        journal = RequestJournal(
            capacity: limits.journalCapacity, maxBodyBytes: limits.journalMaxBodyBytes,
            maxResponseBodyBytes: limits.journalMaxBodyBytes, sharedBudget: journalBodyBudget)
        admin = AdminAPI(
            store: store, journal: journal, info: info, maxStubs: limits.maxStubsPerSession,
            basePath: "\(Session.pathPrefix)/\(id)", bodyFilesRoot: bodyFilesRoot, memory: journalBodyBudget?.memory)
    }

    /// Whether `request` carries this session's secret in ``secretHeader``, compared in constant time.
    package func isOwned(by request: HTTPRequest) -> Bool {
        guard let presented = request.headers[Session.secretHeader] else { return false }
        return AdminAccess.constantTimeEquals(presented.trimmingCharacters(in: .whitespaces), secret)
    }

    /// 24 lowercase hex digits from 12 bytes of the system's random generator: 96 random bits (a UUID's
    /// first 24 digits hold only 90, its version and variant bits being fixed).
    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<12).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }.joined()
    }

    /// The session as the admin API shows it.
    ///
    /// - Parameters:
    ///   - baseURL: The daemon's base URL, under which the session's `baseUrl` lies.
    ///   - adminBaseURL: Where the daemon serves `/__admin` (its admin port, config `adminPort`), under which
    ///     the session's `adminUrl` lies; `nil` for `baseURL`.
    ///   - includingSecret: Whether to show ``secret``: only in the answer to its creator.
    ///   - lastUsed: When a request last reached it (``SessionRegistry/lastUsed(of:)``); `nil`: when it was made.
    package func json(
        baseURL: String, adminBaseURL: String? = nil, includingSecret: Bool = false, lastUsed: Date? = nil
    ) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id),
            "baseUrl": .string(baseURL + basePath),
            "adminUrl": .string((adminBaseURL ?? baseURL) + AdminAPI.prefix + "/sessions/" + id),
            "idleTimeoutSeconds": .integer(Int64(idleTimeoutSeconds)),
            "createdAt": .string(ServeEvent.timestamp(createdAt)),
            "lastUsedAt": .string(ServeEvent.timestamp(lastUsed ?? createdAt)),
            "stubs": .integer(Int64(store.index.count)),
            "requests": .integer(Int64(journal.count)),
        ]
        if let name { object["name"] = .string(name) }
        if includingSecret { object["secret"] = .string(secret) }
        return .object(object)
    }
}
