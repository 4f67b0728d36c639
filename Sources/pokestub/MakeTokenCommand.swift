import Foundation
import PokestubDaemon

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `pokestub make-token FILE [--group GROUP]`: makes an admin token file unless one is there, and checks the
/// one that is. The systemd units run it as root before the daemon starts (`pokestub-admin-token.service`),
/// so a shared host's daemon always has a token.
enum MakeTokenCommand {
    static let help = """
        Usage: pokestub make-token FILE [--group GROUP]

        Makes FILE hold a new admin token: 32 random bytes from the system's secure generator as 64
        hex digits and a newline, readable by its owner and by GROUP (mode 0640; 0600 without
        --group). The file appears whole or not at all (written beside it, then linked into place).
        A FILE that exists is kept, and checked as serve checks a token file: a regular file that
        its group and others cannot write and others cannot read, holding one valid token.
        The token is never printed. Exit statuses: 0 made or kept, 64 usage error, 73 cannot
        write FILE, 78 FILE exists but is not a good token file, or GROUP does not exist.

        Options:
          --group GROUP   the group that may read the token (CI jobs that drive the admin API)
          -h, --help      print this help

        """

    static func run(arguments: [String]) throws(CommandFailure) -> ExitStatus {
        let parsed = try ParsedArguments(
            arguments, valueOptions: ["group"], flagOptions: ["help"], command: "make-token")
        if parsed.flags.contains("help") {
            Console.out(help)
            return .success
        }
        guard parsed.positional.count == 1, let path = parsed.positional.first, !path.isEmpty else {
            throw CommandFailure(status: .usage, message: "make-token takes one file\n\n" + help)
        }
        var groupID: gid_t?
        if let name = parsed.options["group"] {
            guard let entry = getgrnam(name) else {
                throw CommandFailure(
                    status: .configuration, message: "make-token: no group \(name.debugDescription) on this system")
            }
            groupID = entry.pointee.gr_gid
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            try check(path)
            Console.out("kept the admin token file \(path)")
            return .success
        }
        guard errno == ENOENT else { throw cannotWrite(path, String(cString: strerror(errno))) }
        if try create(path, group: groupID) {
            Console.out("made the admin token file \(path)")
        } else {
            try check(path)
            Console.out("kept the admin token file \(path)")
        }
        return .success
    }

    /// Checks an existing token file as `serve` reads one, and that others cannot read it.
    private static func check(_ path: String) throws(CommandFailure) {
        do { _ = try AdminTokenFile.read(path) } catch {
            throw CommandFailure(status: .configuration, message: "make-token: \(error.description)")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw cannotWrite(path, String(cString: strerror(errno))) }
        if status.st_mode & S_IROTH != 0 {
            throw CommandFailure(
                status: .configuration,
                message: "make-token: \(path) is readable by every user (mode "
                    + "\(String(Int(status.st_mode & 0o7777), radix: 8))); chmod o-r it")
        }
    }

    /// Writes a new token to a temporary file beside `path` and links it to `path`.
    ///
    /// `link(2)` fails when `path` exists, so a file made meanwhile is never replaced.
    ///
    /// - Returns: `true` when the new file is in place, `false` when one appeared meanwhile.
    private static func create(_ path: String, group: gid_t?) throws(CommandFailure) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary =
            ((folder.isEmpty ? "." : folder) as NSString)
            .appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw cannotWrite(path, "\(temporary): \(String(cString: strerror(errno)))") }
        var linked = false
        defer { unlink(temporary) }
        do {
            defer { close(descriptor) }
            var generator = SystemRandomNumberGenerator()
            let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }
                .joined()
            let bytes = Array((token + "\n").utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count else { throw cannotWrite(path, "short write to \(temporary)") }
            if let group {
                guard fchown(descriptor, uid_t.max, group) == 0 else {
                    throw cannotWrite(path, "cannot give it group \(group): \(String(cString: strerror(errno)))")
                }
                guard fchmod(descriptor, 0o640) == 0 else {
                    throw cannotWrite(path, "chmod 0640: \(String(cString: strerror(errno)))")
                }
            }
            guard fsync(descriptor) == 0 else { throw cannotWrite(path, String(cString: strerror(errno))) }
        }
        if link(temporary, path) == 0 {
            linked = true
        } else if errno != EEXIST {
            throw cannotWrite(path, String(cString: strerror(errno)))
        }
        return linked
    }

    private static func cannotWrite(_ path: String, _ reason: String) -> CommandFailure {
        CommandFailure(status: .cannotCreate, message: "make-token: cannot write \(path): \(reason)")
    }
}
