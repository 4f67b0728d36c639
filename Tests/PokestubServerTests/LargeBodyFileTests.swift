import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// A body file of `BodyFile.streamingThreshold` bytes or more is sent from the file, not read into memory.
@Suite("Large body files are sent from the file")
struct LargeBodyFileTests {

    /// Fetches `url` in a child process that counts and digests the body without keeping it, so the client's
    /// memory is not this process's.
    private static func fetch(_ url: String, method: String = "GET") throws -> (head: String, size: Int, digest: String)
    {
        let script = """
            import hashlib, sys, urllib.request
            request = urllib.request.Request(sys.argv[1], method=sys.argv[2])
            with urllib.request.urlopen(request) as response:
                digest, size = hashlib.sha256(), 0
                while chunk := response.read(1 << 20):
                    digest.update(chunk); size += len(chunk)
                print(response.headers.get("Content-Length")); print(size); print(digest.hexdigest())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url, method]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard process.terminationStatus == 0, lines.count == 3, let size = Int(lines[1]) else {
            throw TestFailure("fetching \(url) failed: \(lines)")
        }
        return (lines[0], size, lines[2])
    }

    @Test(
        "a 64 MiB body file is served whole, byte for byte, and adds far less than its size to the peak RSS",
        .enabled(if: ResidentMemory.isAvailable, "needs Linux's /proc"))
    func streamsFromTheFile() async throws {
        let size = 64 << 20
        let root = try TemporaryDirectory.stubRoot(mappings: [
            "big.json": #"{"request":{"method":"ANY","url":"/big"},"response":{"status":200,"bodyFileName":"big.bin"}}"#
        ])
        defer { root.removeFolder() }
        // A sparse file with marks at both ends: reading it whole would touch 64 MiB of memory all the same.
        let path = root.path + "/__files/big.bin"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data("start".utf8))
        try handle.truncate(atOffset: UInt64(size - 3))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("end".utf8))
        try handle.close()
        let expectedDigest = Self.sha256Hex(of: path)

        try await LiveServer.with(stubRoot: root.path) { server in
            let url = "http://127.0.0.1:\(server.server.port)/big"
            try ResidentMemory.resetPeak()
            let before = try #require(ResidentMemory.peakBytes())
            let first = try await onOwnThread { try Self.fetch(url) }
            let second = try await onOwnThread { try Self.fetch(url) }
            let peak = try #require(ResidentMemory.peakBytes())
            for fetched in [first, second] {
                #expect(fetched.size == size)
                #expect(fetched.head == String(size))
                #expect(fetched.digest == expectedDigest)
            }
            #expect(peak - before < 16 << 20, "peak RSS grew by \(peak - before) bytes serving a \(size)-byte file")
            // HEAD: the length a GET gets, no body.
            let head = try await onOwnThread { try Self.fetch(url, method: "HEAD") }
            #expect(head.head == String(size) && head.size == 0)
        }
    }

    private static func sha256Hex(of path: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let output = Pipe()
        process.standardOutput = output
        try? process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }
}
