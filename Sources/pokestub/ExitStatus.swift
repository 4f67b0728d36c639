import Foundation

/// The exit statuses pokestub uses, from sysexits(3) where one fits.
enum ExitStatus: Int32 {
    /// Success.
    case success = 0
    /// `pokestub check` found problems.
    case problemsFound = 1
    /// The command line was wrong (`EX_USAGE`).
    case usage = 64
    /// The stub files could not be loaded at start (`EX_DATAERR`).
    case dataError = 65
    /// The server could not listen (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// The port file could not be written (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// The configuration is invalid (`EX_CONFIG`).
    case configuration = 78
}

/// A command-line failure with the status to exit with.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String
}

/// Writes to standard output and standard error unbuffered, so lines reach a pipe at once (the
/// "listening" line is what scripts and tests wait for).
enum Console {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
