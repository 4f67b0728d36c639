import Foundation
import PokestubLocking

/// The open sessions of a daemon, with their limits and idle expiry.
package final class SessionRegistry: Sendable {
    /// The limits every session and the registry keep to.
    package let limits: SessionLimits
    private let info: ServerInfo
    private let bodyFilesRoot: String?
    private let journalBodyBudget: JournalBodyBudget?
    private let sessions = Locked<[String: Entry]>([:])

    /// An open session and when a request last reached it, kept together so that one lock finds a session,
    /// checks its idle time and marks it used.
    private struct Entry: Sendable {
        let session: Session
        /// Milliseconds since 1970.
        var lastUsedMilliseconds: Int64

        init(_ session: Session, usedAt now: Date) {
            self.session = session
            lastUsedMilliseconds = Entry.milliseconds(now)
        }

        /// Whether the session has been idle for longer than its timeout at `now`.
        func isExpired(at now: Date) -> Bool {
            Entry.milliseconds(now) - lastUsedMilliseconds > Int64(session.idleTimeoutSeconds) * 1000
        }

        static func milliseconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }
    }

    /// Creates an empty registry.
    ///
    /// - Parameters:
    ///   - limits: The limits.
    ///   - info: The daemon's facts (base URL).
    ///   - bodyFilesRoot: The stub root whose `__files/` sessions' stubs may name in `bodyFileName`.
    ///   - journalBodyBudget: The request-body budget the sessions' journals share with the daemon's.
    ///   - globalResponseTemplating: Whether sessions' stubs are response templates without the transformer.
    package init(
        limits: SessionLimits, info: ServerInfo, bodyFilesRoot: String? = nil,
        journalBodyBudget: JournalBodyBudget? = nil, globalResponseTemplating: Bool = false
    ) {
        self.limits = limits
        self.info = info
        self.bodyFilesRoot = bodyFilesRoot
        self.journalBodyBudget = journalBodyBudget
        self.globalResponseTemplating = globalResponseTemplating
    }

    /// Whether sessions' stubs are response templates without the `response-template` transformer.
    let globalResponseTemplating: Bool

    /// Why a session could not be made.
    package enum CreationError: Error, Sendable, Equatable {
        /// ``SessionLimits/maxSessions`` sessions are open.
        case tooManySessions(limit: Int)
        /// The idle time asked for is not between 1 second and ``SessionLimits/maxIdleSeconds``.
        case invalidIdleTimeout(Int, limit: Int)
    }

    /// Opens a session.
    ///
    /// - Parameters:
    ///   - name: A name for people.
    ///   - idleTimeoutSeconds: Seconds without requests before it ends; default ``SessionLimits/defaultIdleSeconds``.
    /// - Throws: ``CreationError`` when the registry is full or the idle time is out of range.
    package func create(name: String?, idleTimeoutSeconds: Int?, now: Date = Date()) throws(CreationError) -> Session {
        let idle = idleTimeoutSeconds ?? limits.defaultIdleSeconds
        guard (1...limits.maxIdleSeconds).contains(idle) else {
            throw .invalidIdleTimeout(idle, limit: limits.maxIdleSeconds)
        }
        expireIdle(now: now)
        return try sessions.withLock { (sessions: inout [String: Entry]) throws(CreationError) -> Session in
            guard sessions.count < limits.maxSessions else { throw .tooManySessions(limit: limits.maxSessions) }
            let session = Session(
                name: name, idleTimeoutSeconds: idle, limits: limits, info: info, bodyFilesRoot: bodyFilesRoot,
                journalBodyBudget: journalBodyBudget, globalResponseTemplating: globalResponseTemplating, now: now)
            sessions[session.id] = Entry(session, usedAt: now)
            return session
        }
    }

    /// The open session with this id, marked as used; `nil` when there is none or it has expired. One lock.
    package func session(id: String, now: Date = Date()) -> Session? {
        sessions.withLock { sessions -> Session? in
            guard let entry = sessions[id] else { return nil }
            if entry.isExpired(at: now) {
                sessions.removeValue(forKey: id)
                return nil
            }
            sessions[id]?.lastUsedMilliseconds = Entry.milliseconds(now)
            return entry.session
        }
    }

    /// When a request last reached `session` (when it was made, before any); `nil` when it is not open.
    package func lastUsed(of session: Session) -> Date? {
        sessions.withLock { sessions in
            sessions[session.id].map { Date(timeIntervalSince1970: Double($0.lastUsedMilliseconds) / 1000) }
        }
    }

    /// Ends a session.
    ///
    /// - Returns: Whether it was open.
    @discardableResult
    package func remove(id: String) -> Bool {
        sessions.withLock { $0.removeValue(forKey: id) != nil }
    }

    /// The open sessions, oldest first.
    package var all: [Session] {
        expireIdle()
        return sessions.withLock { $0.values.map(\.session) }.sorted { $0.createdAt < $1.createdAt }
    }

    /// Ends every session idle for longer than its timeout.
    ///
    /// - Returns: The ids of the sessions ended.
    @discardableResult
    package func expireIdle(now: Date = Date()) -> [String] {
        sessions.withLock { sessions in
            let expired = sessions.values.filter { $0.isExpired(at: now) }.map(\.session.id)
            for id in expired { sessions.removeValue(forKey: id) }
            return expired
        }
    }
}
