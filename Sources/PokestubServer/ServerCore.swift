import CMicroHTTPD
import Dispatch
import Foundation
import PokestubCore
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What libmicrohttpd's callbacks reach: the handler, limits, and the requests waiting on a suspended
/// connection. The callbacks are C functions; they find this object through their `cls` pointer.
final class ServerCore: Sendable {
    let handler: any HTTPHandler
    let maxBodyBytes: Int
    /// The answer on a connection accepted past the connection limit.
    let overloaded: HTTPResponse
    /// The limits a request head is checked against before its body is read.
    let framing: RequestFraming.Limits
    let logger: Logger
    /// Deadlines for slow request heads and bodies.
    let deadlines: ConnectionDeadlines
    private let waiting = Locked<[ObjectIdentifier: RequestContext]>([:])
    init(
        handler: any HTTPHandler, maxBodyBytes: Int, maxHeaderBytes: Int, deadlines: ConnectionDeadlines,
        logger: Logger
    ) {
        self.handler = handler
        self.maxBodyBytes = maxBodyBytes
        var overloaded = HTTPResponse.text(
            "pokestub has all its \(deadlines.connectionLimit) connections open; try again\n", status: 503)
        overloaded.headers.replace(name: "Connection", value: "close")
        overloaded.headers.replace(name: "Retry-After", value: "1")
        self.overloaded = overloaded
        framing = RequestFraming.Limits(maxBodyBytes: maxBodyBytes, maxHeaderBytes: maxHeaderBytes)
        self.deadlines = deadlines
        self.logger = logger
    }

    /// From now on every new request is answered 503 with `Connection: close`: the server is stopping.
    func stopAccepting() {
        deadlines.stopAccepting()
    }

    /// Requests that reached the access handler and have not completed.
    var requestsInFlight: Int { deadlines.requestsInFlight }

    /// Answers every suspended request with 503, for shutdown.
    func abandonWaitingRequests() {
        let contexts = waiting.withLock { Array($0.values) }
        for context in contexts {
            context.finish(
                with: .text("pokestub is shutting down\n", status: 503), core: self)
        }
    }

    // MARK: - Callbacks

    /// Called when a connection is accepted and when it is about to close (its socket still open): keeps the
    /// connection's ``ConnectionRecord`` in its socket context.
    static let connectionNotifier: MHD_NotifyConnectionCallback = { cls, connection, socketContext, event in
        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
        guard let connection, let socketContext else { return }
        if event.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
            let record = ConnectionRecord(
                deadlines: core.deadlines.opened(socket: pokestub_mhd_connection_fd(connection)),
                clientAddress: ConnectionReader.clientAddress(of: connection))
            socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        } else if let pointer = socketContext.pointee {
            let record = Unmanaged<ConnectionRecord>.fromOpaque(pointer).takeRetainedValue()
            core.deadlines.closed(record.deadlines)
            record.close()
            socketContext.pointee = nil
        }
    }

    /// The record of a connection.
    static func record(_ connection: OpaquePointer?) -> ConnectionRecord? {
        guard let connection, let pointer = pokestub_mhd_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionRecord>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Called once per request with the raw request target, before libmicrohttpd decodes it: the per-request
    /// context starts here so the journal can keep the URL exactly as received. Its one reference is
    /// libmicrohttpd's request pointer, given up in `requestCompleted`; the connection's record also notes it
    /// (``ConnectionRecord/start(_:)``) to release it if the request never completes.
    static let uriLogger:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) ->
            UnsafeMutableRawPointer? = { cls, uri, connection in
                let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
                let rawURI = uri.map { String(cString: $0) } ?? "/"
                let context = Unmanaged.passRetained(RequestContext(rawURI: rawURI))
                if let record = ServerCore.record(connection) {
                    record.start(context)
                    core.deadlines.requestLineReceived(record.deadlines)
                    // libmicrohttpd 0.9 loses a request whose arguments overflow its pool, answering nothing:
                    // the query is emptied where libmicrohttpd is about to parse it, so the request reaches
                    // `RequestFraming`, which answers 414 from the target copied above. Should a request still
                    // be lost, the deadline ends it within a second.
                    if RequestFraming.queryArgumentCount(rawURI) > RequestFraming.maxQueryArguments {
                        if !HTTPServer.libraryIsVersion1, let uri {
                            pokestub_mhd_drop_query(UnsafeMutablePointer(mutating: uri))
                        }
                        core.deadlines.expedite(record.deadlines)
                    }
                }
                return context.toOpaque()
            }

    /// Called when a request that reached the access handler is done (answered, failed, or the client went
    /// away): releases its context. One lock: the connection's record (``ConnectionDeadlines/requestCompleted(_:wasInFlight:)``),
    /// and the waiting requests' only for a request that was suspended.
    static let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, contextPointer, _ in
        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
        let record = ServerCore.record(connection)
        guard let pointer = contextPointer?.pointee else {
            if let record { core.deadlines.requestCompleted(record.deadlines, wasInFlight: false) }
            return
        }
        record?.complete(pointer)
        let request = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
        let largeBody = request.bodyBytes >= HeapRelease.largeBodyBytes
        if request.wasSuspended { core.stopWaiting(request) }
        contextPointer?.pointee = nil
        if let record { core.deadlines.requestCompleted(record.deadlines, wasInFlight: request.isInFlight) }
        withExtendedLifetime(request) {}
        // The body's copies and its parsed form were freed on several threads: give them back.
        if largeBody { HeapRelease.release() }
    }

    /// libmicrohttpd's access handler: called first with the headers, then with each piece of body, then
    /// once more with no data, which is when pokestub answers (answering on the first call makes
    /// libmicrohttpd 0.9.75 close keep-alive connections).
    ///
    /// The connection's record is locked once when the head is in (the request counts as in flight, its body
    /// is due, and whether the server is stopping is read) and, for a request with a body, once more when the
    /// body is in; a request without one is complete with its head.
    static let accessHandler: MHD_AccessHandlerCallback = {
        cls, connection, _, method, version, uploadData, uploadDataSize, contextPointer in
        let core = Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
        guard let connection, let contextPointer, let pointer = contextPointer.pointee else { return MHD_Result.NO }
        let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
        // From the first call on, libmicrohttpd owes this request a `requestCompleted`.
        let record = ServerCore.record(connection)
        if context.isStarting {
            let refusal: HTTPResponse?
            var headers = HTTPHeaders()
            if let record, record.deadlines.isOverflow {
                refusal = core.overloaded
            } else {
                headers = ConnectionReader.headers(of: connection)
                refusal = RequestFraming.refusal(
                    rawURI: context.rawURI, version: version.map { String(cString: $0) } ?? "HTTP/1.1",
                    headers: headers, limits: core.framing)
            }
            let expectingBody = refusal == nil && RequestFraming.declaresBody(headers)
            if let record {
                context.serverStopping = core.deadlines.headersReceived(record.deadlines, expectingBody: expectingBody)
                context.isInFlight = true
                context.deadlineRuns = expectingBody
            }
            if let refusal {
                context.refuse()
                return ResponseWriter.queue(refusal, on: connection)
            }
            context.headers = headers
        }
        let pieceSize = uploadDataSize?.pointee ?? 0
        let step = context.step(bodyPiece: pieceSize > 0 ? uploadData : nil, size: pieceSize, limit: core.maxBodyBytes)
        if context.deadlineRuns, let record {
            if case .continueReading = step {
            } else {
                context.serverStopping = core.deadlines.bodyReceived(record.deadlines)
                context.deadlineRuns = false
            }
        }
        switch step {
        case .continueReading:
            uploadDataSize?.pointee = 0
            return MHD_Result.YES
        case .answer(let response):
            return ResponseWriter.queue(response, on: connection)
        case .fail:
            return MHD_Result.NO
        case .handle where context.serverStopping:
            var refusal = HTTPResponse.text("pokestub is stopping\n", status: 503)
            refusal.headers.replace(name: "Connection", value: "close")
            return ResponseWriter.queue(refusal, on: connection)
        case .handle(let body):
            let request = HTTPRequest(
                method: method.map { String(cString: $0) } ?? "GET", rawURL: context.rawURI,
                headers: context.headers, body: body,
                clientAddress: record?.clientAddress ?? ConnectionReader.clientAddress(of: connection))
            let reply: HTTPReply
            reply = core.handler.handle(request)
            return core.deliver(reply, context: context, connection: connection)
        }
    }

    private func deliver(_ reply: HTTPReply, context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        switch reply {
        case .response(let response) where response.delayMilliseconds <= 0:
            return ResponseWriter.queue(response, on: connection, for: context)
        case .response(let response):
            suspend(context, connection: connection)
            let delay = DispatchTime.now() + .milliseconds(response.delayMilliseconds)
            DispatchQueue.global().asyncAfter(deadline: delay) { [self] in
                var immediate = response
                immediate.delayMilliseconds = 0
                context.finish(with: immediate, core: self)
            }
            return MHD_Result.YES
        case .deferred(let start):
            suspend(context, connection: connection)
            start { [self] response in
                if response.delayMilliseconds > 0 {
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(response.delayMilliseconds)) {
                        var immediate = response
                        immediate.delayMilliseconds = 0
                        context.finish(with: immediate, core: self)
                    }
                } else {
                    context.finish(with: response, core: self)
                }
            }
            return MHD_Result.YES
        }
    }

    private func suspend(_ context: RequestContext, connection: OpaquePointer) {
        context.markWaiting(connection: ConnectionHandle(pointer: connection))
        waiting.withLock { $0[ObjectIdentifier(context)] = context }
        MHD_suspend_connection(connection)
    }

    func stopWaiting(_ context: RequestContext) {
        waiting.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(context)) }
    }
}

/// A connection pointer that another thread may resume. `@unchecked Sendable`: `MHD_resume_connection` is
/// documented as callable from any thread; the pointer is used for nothing else off the server's threads.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
