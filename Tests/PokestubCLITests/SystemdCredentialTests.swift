import Foundation
import PokestubTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A shared host's daemon as systemd runs it: `pokestub make-token` makes the token file
/// (`systemd/pokestub-admin-token.service`), systemd hands the service a copy as the credential `admin-token`
/// (`LoadCredential=`), and every CI job holds the token but reaches only the sessions it made.
@Suite("An admin token from a file, as systemd hands it over")
struct SystemdCredentialTests {
    private static func send(
        _ url: String, method: String = "GET", token: String? = nil, secret: String? = nil, json: String? = nil
    ) async throws -> HTTPFetch {
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let secret { headers["Pokestub-Session-Secret"] = secret }
        return try await HTTPFetch.send(url, method: method, body: json.map { Data($0.utf8) }, headers: headers)
    }

    private static func mode(of path: String) throws -> (permissions: Int, group: gid_t) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw TestFailure("stat \(path): \(String(cString: strerror(errno)))") }
        return (Int(status.st_mode & 0o7777), status.st_gid)
    }

    @Test("make-token makes a 0640 file of 64 random hex digits for a group, keeps it, and refuses a bad one")
    func makeToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.removeFolder() }
        let path = directory.path + "/admin-token"
        let group = try #require(getgrgid(getgid()))
        let groupName = String(cString: group.pointee.gr_name)

        let made = try await PokestubProcess.run(["make-token", path, "--group", groupName])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == "made the admin token file \(path)\n")
        let token = try String(contentsOfFile: path, encoding: .utf8)
        #expect(token.count == 65 && token.hasSuffix("\n"))
        #expect(token.dropLast().allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(try Self.mode(of: path).permissions == 0o640)
        #expect(try Self.mode(of: path).group == getgid())
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["admin-token"])

        // Another start keeps it.
        let kept = try await PokestubProcess.run(["make-token", path, "--group", groupName])
        #expect(kept.status == 0 && kept.stdout == "kept the admin token file \(path)\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == token)
        #expect(!(made.stdout + made.stderr + kept.stdout + kept.stderr).contains(token.dropLast()))

        // Without a group: 0600; two files never share a token.
        let other = directory.path + "/other-token"
        #expect(try await PokestubProcess.run(["make-token", other]).status == 0)
        #expect(try Self.mode(of: other).permissions == 0o600)
        #expect(try String(contentsOfFile: other, encoding: .utf8) != token)

        // A file every user may read, or its group may write, is refused, and left as it is.
        for (mode, says) in [(0o644, "is readable by every user"), (0o660, "writable by its group or by others")] {
            #expect(chmod(path, mode_t(mode)) == 0)
            let refused = try await PokestubProcess.run(["make-token", path])
            #expect(refused.status == 78)
            #expect(refused.stderr.contains("make-token: \(path)"), "\(refused.stderr)")
            #expect(refused.stderr.contains(says), "\(refused.stderr)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == token)
        }
        let noGroup = try await PokestubProcess.run(["make-token", directory.path + "/x", "--group", "no-such-group-x"])
        #expect(noGroup.status == 78 && noGroup.stderr.contains(#"no group "no-such-group-x""#))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/x"))
        #expect(try await PokestubProcess.run(["make-token"]).status == 64)
    }

    @Test("serve --admin-token-file: the admin API needs that token, and no output shows it")
    func tokenFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.removeFolder() }
        let token = "0123456789abcdef0123456789abcdef"
        let file = try directory.write(token + "\n", to: "token")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let server = try PokestubProcess(
            [
                "serve", "--port", "0", "--stubs", Repository.stubs, "--admin-token-file", file.path, "--log-level",
                "debug",
            ])
        defer { server.signal(SIGKILL) }
        let base = try await server.waitUntilListening()
        #expect(try await Self.send(base + "/__admin/mappings").status == 401)
        #expect(try await Self.send(base + "/__admin/mappings", token: "wrong-wrong-wrong-wrong").status == 401)
        #expect(try await Self.send(base + "/__admin/mappings", token: token).status == 200)
        #expect(try await Self.send(base + "/api/v2/pokemon/1/").status == 200)
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(!(server.stdout + server.stderr).contains(token))
    }

    @Test("a token file that cannot be used stops serve with status 78, naming the file")
    func badTokenFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.removeFolder() }
        let file = try directory.write("0123456789abcdef0123456789abcdef\n", to: "token")
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file.path)
        let refused = try await PokestubProcess.run(
            ["serve", "--port", "0", "--stubs", Repository.stubs],
            environment: ["POKESTUB_ADMIN_TOKEN_FILE": file.path])
        #expect(refused.status == 78)
        #expect(
            refused.stderr.contains(
                "invalid configuration adminTokenFile (from POKESTUB_ADMIN_TOKEN_FILE): \(file.path) is writable"),
            "\(refused.stderr)")
        #expect(!refused.stdout.contains("listening"))
    }

    @Test("with the credential systemd passes, jobs holding the token still reach only their own sessions")
    func credentialIsolatesSessions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.removeFolder() }
        // As pokestub-admin-token.service makes it, and systemd copies it for the service (mode 0400).
        let made = try await PokestubProcess.run(["make-token", directory.path + "/admin-token"])
        #expect(made.status == 0, "\(made.stderr)")
        let credentials = directory.path + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: directory.path + "/admin-token", toPath: credentials + "/admin-token")
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: credentials + "/admin-token")
        let token = try String(contentsOfFile: credentials + "/admin-token", encoding: .utf8)
            .trimmingCharacters(in: .newlines)

        let server = try PokestubProcess(
            ["serve", "--port", "0", "--stubs", Repository.stubs], environment: ["CREDENTIALS_DIRECTORY": credentials])
        defer { server.signal(SIGKILL) }
        let base = try await server.waitUntilListening()
        let admin = base + "/__admin"
        // Without the token nobody can even list sessions.
        #expect(try await Self.send(admin + "/sessions").status == 401)
        #expect(try await Self.send(admin + "/sessions", method: "POST", json: "{}").status == 401)

        // Two jobs, both holding the token, each make a session.
        let a = try await Self.send(admin + "/sessions", method: "POST", token: token, json: #"{"name":"job-a"}"#)
        let b = try await Self.send(admin + "/sessions", method: "POST", token: token, json: #"{"name":"job-b"}"#)
        #expect(a.status == 201 && b.status == 201)
        let sessionA = try #require(try JSONSerialization.jsonObject(with: a.body) as? [String: Any])
        let sessionB = try #require(try JSONSerialization.jsonObject(with: b.body) as? [String: Any])
        let idA = try #require(sessionA["id"] as? String)
        let secretA = try #require(sessionA["secret"] as? String)
        let idB = try #require(sessionB["id"] as? String)
        let secretB = try #require(sessionB["secret"] as? String)

        // Job A lists only its own session: B's id and base URL are not shown to it.
        let listed = try await Self.send(admin + "/sessions", token: token, secret: secretA)
        #expect(listed.status == 200)
        #expect(listed.text.contains(idA) && !listed.text.contains(idB), "\(listed.text)")
        #expect(!(try await Self.send(admin + "/sessions", token: token).text.contains(idB)))

        // Job A, with the token and its own secret, can neither read, reset, change nor end B's session.
        let stub = #"{"request":{"url":"/x"},"response":{"status":200,"body":"a"}}"#
        for (method, path, json) in [
            ("GET", "/sessions/\(idB)", nil), ("GET", "/sessions/\(idB)/requests", nil),
            ("POST", "/sessions/\(idB)/reset", nil), ("POST", "/sessions/\(idB)/mappings", stub),
            ("DELETE", "/sessions/\(idB)/mappings", nil), ("DELETE", "/sessions/\(idB)", nil),
        ] as [(String, String, String?)] {
            let answer = try await Self.send(admin + path, method: method, token: token, secret: secretA, json: json)
            #expect(answer.status == 403, "\(method) \(path): \(answer.text)")
            #expect(!answer.text.contains(secretB))
        }
        // B's own secret does all of it; B's session is still there after A's attempts.
        #expect(try await Self.send(admin + "/sessions/\(idB)", token: token, secret: secretB).status == 200)
        #expect(
            try await Self.send(admin + "/sessions/\(idB)", method: "DELETE", token: token, secret: secretB).status
                == 200)
        server.signal(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(!(server.stdout + server.stderr).contains(token))
    }
}
