import Foundation
import PokestubLocking

/// The open sessions of a daemon, with their limits and idle expiry.
package final class SessionRegistry: Sendable {
    /// The limits every session and the registry keep to.
    package let limits: SessionLimits
    private let info: ServerInfo
    private let bodyFilesRoot: String?
    private let journalBodyBudget: JournalBodyBudget?
    private let sessions = Locked<[String: Session]>([:])

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
        return try sessions.withLock { (sessions: inout [String: Session]) throws(CreationError) -> Session in
            guard sessions.count < limits.maxSessions else { throw .tooManySessions(limit: limits.maxSessions) }
            let session = Session(
                name: name, idleTimeoutSeconds: idle, limits: limits, info: info, bodyFilesRoot: bodyFilesRoot,
                journalBodyBudget: journalBodyBudget, globalResponseTemplating: globalResponseTemplating, now: now)
            sessions[session.id] = session
            return session
        }
    }

    /// The open session with this id, marked as used; `nil` when there is none or it has expired.
    package func session(id: String, now: Date = Date()) -> Session? {
        let found = sessions.withLock { sessions -> Session? in
            guard let session = sessions[id] else { return nil }
            if session.isExpired(at: now) {
                sessions.removeValue(forKey: id)
                return nil
            }
            return session
        }
        found?.touch(now)
        return found
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
        return sessions.withLock { Array($0.values) }.sorted { $0.createdAt < $1.createdAt }
    }

    /// Ends every session idle for longer than its timeout.
    ///
    /// - Returns: The ids of the sessions ended.
    @discardableResult
    package func expireIdle(now: Date = Date()) -> [String] {
        sessions.withLock { sessions in
            let expired = sessions.values.filter { $0.isExpired(at: now) }.map(\.id)
            for id in expired { sessions.removeValue(forKey: id) }
            return expired
        }
    }
}
