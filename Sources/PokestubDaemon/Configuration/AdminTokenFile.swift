import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an admin token from a file: `adminTokenFile`, or the systemd credential `admin-token`.
///
/// A token kept in a file stays out of `ps` (flags) and `/proc/PID/environ` (environment variables), and a
/// file is what systemd's credentials are (systemd.exec(5), `LoadCredential=`: the service sees a read-only
/// copy at `$CREDENTIALS_DIRECTORY/ID`).
///
/// The file must be a regular file of at most 4 KiB that neither its group nor others may write (whoever can
/// write it chooses the token), holding the token as UTF-8 text; line breaks at its end are dropped, so
/// `echo TOKEN > FILE` works. The token follows `adminToken`'s rule: at least 16 characters, no white space.
/// The token itself is never part of an error message.
public enum AdminTokenFile {
    /// The name of the systemd credential the daemon reads when no token is configured: the service's
    /// `LoadCredential=admin-token:PATH` makes it `$CREDENTIALS_DIRECTORY/admin-token`.
    public static let credentialName = "admin-token"

    /// The most bytes a token file may hold.
    public static let maxBytes = 4_096

    /// What is wrong with a token file, in words that name the file.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The reason, starting with the file's path.
        public var description: String
    }

    /// Reads and checks the token in `path`.
    ///
    /// The file is opened without waiting (`O_NONBLOCK`), so a named pipe is refused as not a regular file
    /// instead of blocking the start (open(2)), and it is checked through the open descriptor (`fstat`), so
    /// what is checked is what is read.
    ///
    /// - Parameter path: The file; a relative path is relative to the working directory.
    /// - Returns: The token, without the line breaks that end the file.
    /// - Throws: ``Problem`` when the file is missing or unreadable, not a regular file, writable by its group
    ///   or others, larger than ``maxBytes``, empty, not UTF-8, or holds no valid token.
    public static func read(_ path: String) throws(Problem) -> String {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Problem(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Problem(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Problem(description: "\(path) is not a regular file") }
        if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let mode = String(Int(status.st_mode & 0o7777), radix: 8)
            throw Problem(
                description:
                    "\(path) is writable by its group or by others (mode \(mode)), so they could choose the token; "
                    + "chmod go-w it (0600 or 0640)")
        }
        guard Int(status.st_size) <= maxBytes else {
            throw Problem(description: "\(path) is larger than \(maxBytes) bytes; a token file holds one token")
        }
        let data: Data
        do {
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() ?? Data()
        } catch {
            throw Problem(description: "cannot read \(path): \(error.localizedDescription)")
        }
        guard data.count <= maxBytes else {
            throw Problem(description: "\(path) is larger than \(maxBytes) bytes; a token file holds one token")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw Problem(description: "\(path) is not UTF-8 text")
        }
        while let last = text.unicodeScalars.last, last == "\n" || last == "\r" { text.unicodeScalars.removeLast() }
        guard !text.isEmpty else { throw Problem(description: "\(path) is empty; it must hold the admin token") }
        if let reason = Configuration.tokenProblem(text) { throw Problem(description: "\(path): the token \(reason)") }
        return text
    }
}

extension Configuration {
    /// Why `token` cannot be an admin token, or `nil` when it can: at least 16 characters, no white space.
    static func tokenProblem(_ token: String) -> String? {
        guard token.count >= 16, !token.contains(where: { $0.isWhitespace }) else {
            return "must be at least 16 characters without spaces (use a random one, e.g. openssl rand -hex 32)"
        }
        return nil
    }
}
