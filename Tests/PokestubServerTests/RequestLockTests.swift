#if DEBUG
    import Foundation
    import PokestubCore
    import PokestubDaemon
    import PokestubLocking
    import PokestubTestSupport
    import Testing

    /// The locks one request takes on its way through the daemon, counted by ``LockCensus`` (debug builds only):
    /// issue 28 asks that a replayed GET take at most six, none while another is held.
    @Suite("Locks a request takes")
    struct RequestLockTests {
        /// The most `Locked` acquisitions a replayed GET may take, from libmicrohttpd's first call for it to
        /// its completion (issue 28, item 3).
        static let replayedGetLocks = 6

        /// The most a replayed GET under a session's base path may take: a replayed GET's six, the registry's
        /// lookup (which checks the session's idle time and marks it used under the same lock) and the
        /// session's own stub index.
        static let sessionGetLocks = replayedGetLocks + 2

        /// The engine with a census in front: each answer names the server thread it was made on
        /// (`Census-Thread`) and how many locks that thread had taken when the engine was called
        /// (`Census-Taken`). It takes no lock itself.
        private struct CensusHandler: HTTPHandler {
            let engine: StubEngine

            func handle(_ request: HTTPRequest) -> HTTPReply {
                let thread = LockCensus.currentThread
                let taken = LockCensus.acquisitions(onThread: thread)
                guard case .response(var response) = engine.handle(request) else {
                    return .response(.text("the census handler answers synchronous replies only\n", status: 500))
                }
                response.headers.add(name: "Census-Thread", value: String(thread))
                response.headers.add(name: "Census-Taken", value: String(taken))
                return .response(response)
            }
        }

        /// The shipped pokemon list page's stub and body file, as the benchmark's list route serves them.
        private static func listStubRoot() throws -> TemporaryDirectory {
            let root = try TemporaryDirectory()
            let stubs = URL(fileURLWithPath: Repository.stubs)
            let mapping = try Data(contentsOf: stubs.appendingPathComponent("mappings/pokemon/list/offset-0.json"))
            _ = try root.write(mapping, to: "mappings/list.json")
            let body = try Data(
                contentsOf: stubs.appendingPathComponent("__files/pokemon/list/offset-0-limit-20.json"))
            _ = try root.write(body, to: "__files/pokemon/list/offset-0-limit-20.json")
            return root
        }

        /// The census headers of one answer on `connection`, which must be a 200.
        private static func exchange(
            _ request: String, on connection: RawConnection
        ) async throws -> (
            thread: Int, taken: Int
        ) {
            try connection.send(request)
            let text = await connection.receiveResponses(1)
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(200))")
            func field(_ name: String) throws -> Int {
                let line = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                let value = line.flatMap { Int($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)) }
                return try #require(value, "no \(name) in \(text.prefix(400))")
            }
            return (try field("Census-Thread"), try field("Census-Taken"))
        }

        /// A daemon over the list page's stub with the census in front, on one server thread, so every call
        /// libmicrohttpd makes for a connection runs on it; `body` gets it and it is shut down after.
        private static func withCensusDaemon(_ body: (PokestubDaemon) async throws -> Void) async throws {
            let root = try listStubRoot()
            var configuration = Configuration()
            configuration.port = 0
            configuration.stubs = root.path
            let settings = configuration
            let daemon = try await onOwnThread {
                let daemon = try PokestubDaemon(
                    configuration: settings, threads: 1, adminAccess: nil, handler: { CensusHandler(engine: $0) })
                try daemon.start()
                return daemon
            }
            do {
                try await body(daemon)
            } catch {
                await daemon.shutdown(gracePeriod: .milliseconds(500))
                throw error
            }
            await daemon.shutdown(gracePeriod: .milliseconds(500))
        }

        /// The locks one `request` takes when sent three times on one kept-alive connection: the first opens
        /// the connection; from the engine's call for the second to its call for the third lies exactly one
        /// request's worth (the second's answer and completion, the third's start).
        private static func locksOfOneRequest(_ request: String, port: Int) async throws -> [LockCensus.Acquisition] {
            let connection = try RawConnection(port: port)
            _ = try await exchange(request, on: connection)
            let second = try await exchange(request, on: connection)
            let third = try await exchange(request, on: connection)
            #expect(second.thread == third.thread)
            return try #require(
                LockCensus.acquisitions(onThread: third.thread, in: second.taken..<third.taken),
                "\(third.taken - second.taken) acquisitions, more than the census keeps")
        }

        @Test("a replayed GET on a kept-alive connection takes at most six locks, none inside another")
        func replayedGet() async throws {
            try await Self.withCensusDaemon { daemon in
                let request = "GET /api/v2/pokemon/?offset=0&limit=20 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                let taken = try await Self.locksOfOneRequest(request, port: daemon.port)
                let listing = taken.map(\.description).joined(separator: "\n")
                #expect(
                    taken.count <= Self.replayedGetLocks,
                    "a replayed GET took \(taken.count) locks:\n\(listing)")
                #expect(taken.allSatisfy { $0.held == 0 }, "a lock was taken inside another:\n\(listing)")
                #expect(daemon.engine.journal.count == 3)
            }
        }

        @Test("a replayed GET inside a session takes at most eight locks, none inside another")
        func replayedGetInSession() async throws {
            try await Self.withCensusDaemon { daemon in
                let created = try await HTTPFetch.send(
                    "http://127.0.0.1:\(daemon.port)/__admin/sessions", method: "POST",
                    body: Data(#"{"name": "census"}"#.utf8))
                #expect(created.status == 201, "\(created.status)")
                guard case .string(let id)? = try JSONValue.parse(created.body)["id"] else {
                    Issue.record("no session id in \(String(decoding: created.body, as: UTF8.self))")
                    return
                }
                let request =
                    "GET /__sessions/\(id)/api/v2/pokemon/?offset=0&limit=20 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                let taken = try await Self.locksOfOneRequest(request, port: daemon.port)
                let listing = taken.map(\.description).joined(separator: "\n")
                #expect(
                    taken.count <= Self.sessionGetLocks,
                    "a replayed GET in a session took \(taken.count) locks:\n\(listing)")
                #expect(taken.allSatisfy { $0.held == 0 }, "a lock was taken inside another:\n\(listing)")
            }
        }
    }
#endif
