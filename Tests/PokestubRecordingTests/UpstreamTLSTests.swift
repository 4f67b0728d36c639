import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("TLS to the upstream")
struct UpstreamTLSTests {
    @Test("a certificate the system CA store does not trust is refused: 502 naming the certificate, nothing written")
    func untrustedCertificate() async throws {
        let folder = try TemporaryDirectory.stubRoot()
        let certificate = folder.path + "/cert.pem"
        let key = folder.path + "/key.pem"
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        let status = await openssl.waitForExit(timeout: .seconds(60))
        try #require(status == 0, "openssl could not make a certificate (status \(String(describing: status)))")
        let upstream = try await ScriptedUpstream.start(tls: (certificate, key))
        defer { upstream.stop() }
        let stubs = try TemporaryDirectory.stubRoot()
        let server = try RecordingServer(root: stubs.path, mode: .recordMissing, upstream: upstream.baseURL)
        defer { server.stop() }
        let response = try await server.send("GET", "/gzip")
        #expect(response.status == 502)
        let body = try JSONValue.parse(response.body)
        #expect(body["upstream"] == .string(upstream.baseURL))
        let message = (body["message"]?.stringValue ?? "").lowercased()
        #expect(message.contains("certificate"), "\(body)")
        #expect(upstream.requests() == 0, "no request was sent over an unverified connection")
        #expect(stubs.files.isEmpty)
    }
}
