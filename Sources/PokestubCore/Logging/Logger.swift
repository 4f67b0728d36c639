import Foundation
import PokestubLocking

/// How serious a log message is. The raw values are syslog priorities (RFC 5424 §6.2.1), which journald
/// reads from a `<N>` line prefix.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    /// The name used in configuration (`"info"`).
    public var name: String { String(describing: self) }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rawValue > rhs.rawValue
    }
}

/// Where log messages go. Libraries take a ``Logger`` and never make a global one.
public protocol LogHandler: Sendable {
    /// Writes one message (one line, no trailing newline).
    func log(_ level: LogLevel, _ message: String)
}

/// A logger: a handler and the least serious level it passes on.
public struct Logger: Sendable {
    /// The handler messages go to.
    public var handler: any LogHandler
    /// Messages less serious than this are dropped.
    public var level: LogLevel

    /// Creates a logger.
    public init(handler: any LogHandler, level: LogLevel = .info) {
        self.handler = handler
        self.level = level
    }

    /// A logger that drops everything.
    public static let disabled = Logger(handler: DiscardingLogHandler(), level: .error)

    /// Logs a message at a level.
    public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard messageLevel >= level else { return }
        handler.log(messageLevel, message())
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}

/// Drops every message.
public struct DiscardingLogHandler: LogHandler {
    public init() {}
    public func log(_ level: LogLevel, _ message: String) {}
}

/// Writes one line per message to standard error. With `journaldPrefixes` each line starts with `<N>`, the
/// syslog priority that journald reads (sd-daemon(3)); otherwise with the level's name.
public struct StandardErrorLogHandler: LogHandler {
    /// Whether lines start with `<N>` priority prefixes for journald.
    public var journaldPrefixes: Bool

    /// Creates a handler. By default prefixes are on when standard error is not a terminal and journald
    /// is listening (`JOURNAL_STREAM` set, systemd.exec(5)).
    public init(journaldPrefixes: Bool = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil) {
        self.journaldPrefixes = journaldPrefixes
    }

    public func log(_ level: LogLevel, _ message: String) {
        let line = message.replacingOccurrences(of: "\n", with: " ⏎ ")
        let text = journaldPrefixes ? "<\(level.rawValue)>\(line)\n" : "\(level.name): \(line)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Keeps messages in memory, for tests that assert on logs.
public final class InMemoryLogHandler: LogHandler {
    private let lines = Locked<[(LogLevel, String)]>([])

    public init() {}

    public func log(_ level: LogLevel, _ message: String) {
        lines.withLock { $0.append((level, message)) }
    }

    /// The messages so far, oldest first.
    public var messages: [String] {
        lines.withLock { $0.map(\.1) }
    }

    /// The messages at a level.
    public func messages(at level: LogLevel) -> [String] {
        lines.withLock { $0.filter { $0.0 == level }.map(\.1) }
    }
}
