import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@testable import PokestubDaemon

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("The admin token from a file: adminTokenFile and the systemd credential admin-token")
struct AdminTokenFileTests {
    static let token = "0123456789abcdef0123456789abcdef"

    private func resolve(
        environment: [String: String] = [:], flags: [String: String] = [:], in directory: TemporaryDirectory,
        readingAdminToken: Bool = true
    ) throws -> Configuration {
        try Configuration.resolve(
            configFile: nil, environment: environment, flags: flags, workingDirectory: directory.path,
            readingAdminToken: readingAdminToken
        ).0
    }

    private func error(
        environment: [String: String] = [:], flags: [String: String] = [:], in directory: TemporaryDirectory
    ) -> ConfigurationError? {
        #expect(throws: ConfigurationError.self) { try resolve(environment: environment, flags: flags, in: directory) }
    }

    /// Writes `text` to `name` in `directory` with `mode`, returning its absolute path.
    @discardableResult
    private func write(
        _ text: String, to name: String, mode: Int = 0o600, in directory: TemporaryDirectory
    ) throws
        -> String
    {
        let url = try directory.write(text, to: name)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url.path
    }

    @Test("the token is read from the file, its closing line break dropped; a relative path is the working directory's")
    func readsTheFile() throws {
        try TemporaryDirectory.with { directory in
            try write(Self.token + "\n", to: "token", in: directory)
            let fromFlag = try resolve(flags: ["adminTokenFile": "token"], in: directory)
            #expect(fromFlag.adminToken == Self.token)
            try write(Self.token + "\r\n", to: "crlf", mode: 0o640, in: directory)
            let fromEnvironment = try resolve(environment: ["POKESTUB_ADMIN_TOKEN_FILE": "crlf"], in: directory)
            #expect(fromEnvironment.adminToken == Self.token)
            try directory.write(#"{"adminTokenFile": "token"}"#, to: "config.json")
            #expect(try resolve(in: directory).adminToken == Self.token)
            // check and import do not read it.
            #expect(try resolve(in: directory, readingAdminToken: false).adminToken == nil)
        }
    }

    @Test(
        "a token file that cannot be used stops the start, naming the key, where it was set and the file",
        arguments: [
            ("missing", nil, 0o600, "No such file or directory"),
            ("empty", "", 0o600, "is empty"),
            ("newlines only", "\n\n", 0o600, "is empty"),
            ("group-writable", token, 0o620, "writable by its group or by others (mode 620)"),
            ("world-writable", token, 0o602, "writable by its group or by others (mode 602)"),
            ("short", "short-token\n", 0o600, "at least 16 characters"),
            ("spaces", "0123456789 abcdef 0123456789\n", 0o600, "without spaces"),
            ("two lines", token + "\n" + token + "\n", 0o600, "without spaces"),
            ("large", String(repeating: "a", count: 5_000), 0o600, "larger than 4096 bytes"),
        ] as [(String, String?, Int, String)])
    func badFiles(name: String, text: String?, mode: Int, says: String) throws {
        try TemporaryDirectory.with { directory in
            if let text { try write(text, to: name, mode: mode, in: directory) }
            let error = error(environment: ["POKESTUB_ADMIN_TOKEN_FILE": name], in: directory)
            #expect(error?.key == "adminTokenFile")
            #expect(error?.origin == "POKESTUB_ADMIN_TOKEN_FILE")
            #expect(error?.message.contains(directory.path + "/" + name) == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
            if let text, !text.isEmpty {
                #expect(error?.description.contains(text.trimmingCharacters(in: .newlines)) == false)
            }
        }
    }

    @Test("a folder or a named pipe is refused as not a regular file, without waiting for a writer")
    func notRegularFiles() throws {
        try TemporaryDirectory.with { directory in
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent("folder"), withIntermediateDirectories: true)
            #expect(mkfifo(directory.path + "/pipe", 0o600) == 0)
            for name in ["folder", "pipe"] {
                let error = error(flags: ["adminTokenFile": name], in: directory)
                #expect(error?.origin == "--admin-token-file")
                #expect(error?.message == "\(directory.path)/\(name) is not a regular file")
            }
        }
    }

    @Test("adminToken and adminTokenFile together are refused, naming both origins")
    func notBoth() throws {
        try TemporaryDirectory.with { directory in
            try write(Self.token, to: "token", in: directory)
            let error = error(
                environment: ["POKESTUB_ADMIN_TOKEN": Self.token], flags: ["adminTokenFile": "token"], in: directory)
            #expect(error?.key == "adminTokenFile")
            #expect(error?.origin == "--admin-token-file")
            #expect(error?.message == "adminToken is set too (from POKESTUB_ADMIN_TOKEN); set one of them")
        }
    }

    @Test("under systemd, $CREDENTIALS_DIRECTORY/admin-token is the token when none is configured")
    func systemdCredential() throws {
        try TemporaryDirectory.with { directory in
            let credentials = ["CREDENTIALS_DIRECTORY": directory.path + "/credentials"]
            // A service without the credential has no token from it.
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent("credentials"), withIntermediateDirectories: true)
            #expect(try resolve(environment: credentials, in: directory).adminToken == nil)
            // systemd makes the copy read-only for the service's user (0400).
            try write(Self.token + "\n", to: "credentials/admin-token", mode: 0o400, in: directory)
            #expect(try resolve(environment: credentials, in: directory).adminToken == Self.token)
            // A configured token comes first.
            let configured = "fedcba9876543210fedcba9876543210"
            let environment = credentials.merging(["POKESTUB_ADMIN_TOKEN": configured]) { $1 }
            #expect(try resolve(environment: environment, in: directory).adminToken == configured)
            // A bad credential is an error naming it.
            try write("", to: "credentials/admin-token", mode: 0o400, in: directory)
            let error = error(environment: credentials, in: directory)
            #expect(error?.key == "adminToken")
            #expect(error?.origin == "the systemd credential admin-token")
            #expect(
                error?.message == "\(directory.path)/credentials/admin-token is empty; it must hold the admin token")
        }
    }
}
