import CMicroHTTPD
import Foundation
import PokestubCore
import PokestubLocking

/// One request's progress through libmicrohttpd's calls: the raw target, the body so far, and the reply
/// when it comes from another thread.
///
/// `@unchecked Sendable`: everything but the hand-over of a reply is read and written only from
/// libmicrohttpd's callbacks for the request's connection, which libmicrohttpd makes one at a time on the
/// thread that owns the connection, so it needs no lock. A reply made on another thread (a stub's delay, an
/// upstream answer, a slow-request thread) is handed over under ``handover``'s lock, the one lock a request
/// takes here, and only when its connection was suspended for it.
final class RequestContext: @unchecked Sendable {
    /// The request target exactly as received.
    let rawURI: String
    private var phase = Phase.headers
    /// The header fields, read once on libmicrohttpd's first call for the request.
    var headers = HTTPHeaders()
    private var body = Data()
    private var bodyTooLarge = false
    /// Whether the request counts among its connection's requests in flight (from the access handler's first
    /// call), so its completion gives that back.
    var isInFlight = false
    /// Whether its connection's deadline still runs for this request (its head or body is due); once the
    /// request is complete the deadline is cleared, once.
    var deadlineRuns = false
    /// Whether the server was stopping when the request's head (or its body) was complete.
    var serverStopping = false
    /// The body of the answer queued as a prepared libmicrohttpd response (``PreparedResponses``), which
    /// points at its bytes without holding it: kept until the request completes, when libmicrohttpd is done
    /// sending it.
    var answerBody: ResponseBody?
    /// Whether the connection was suspended for a reply from another thread.
    private(set) var wasSuspended = false
    /// Made when the connection is suspended (``markWaiting(connection:)``), before any other thread can see
    /// the request, and only then: a request answered on its server thread allocates no lock.
    private var handover: Locked<Handover>?

    /// What another thread hands over: the reply, and the connection to resume for it.
    private struct Handover {
        var connection: ConnectionHandle?
        var reply: HTTPResponse?
        /// Whether a reply is awaited: from the suspension until the reply is taken.
        var awaited = false
    }

    private enum Phase {
        case headers, body, waiting, done
    }

    /// What the access handler does next.
    enum Step {
        /// Ask for more of the body.
        case continueReading
        /// Build the request and ask the handler.
        case handle(body: Data)
        /// Send this response.
        case answer(HTTPResponse)
        /// Close the connection.
        case fail
    }

    init(rawURI: String) {
        self.rawURI = rawURI
    }

    /// The bytes of body received so far.
    var bodyBytes: Int { body.count }

    /// Whether the access handler has not been called for this request yet.
    var isStarting: Bool { phase == .headers }

    /// Ends the request before its body: the access handler answered it on its first call.
    func refuse() {
        phase = .done
    }

    /// Advances on one access-handler call.
    func step(bodyPiece: UnsafePointer<CChar>?, size: Int, limit: Int) -> Step {
        switch phase {
        case .headers:
            phase = .body
            return .continueReading
        case .body:
            if let bodyPiece, size > 0 {
                if body.count + size > limit {
                    bodyTooLarge = true
                    body = Data()
                } else if !bodyTooLarge {
                    body.append(UnsafeRawPointer(bodyPiece).assumingMemoryBound(to: UInt8.self), count: size)
                }
                return .continueReading
            }
            if bodyTooLarge {
                phase = .done
                return .answer(.text("request body larger than the limit of \(limit) bytes\n", status: 413))
            }
            phase = .waiting
            return .handle(body: body)
        case .waiting:
            guard wasSuspended, let handover else { return .continueReading }
            let reply: HTTPResponse? = handover.withLock { handover in
                guard let reply = handover.reply else { return nil }
                handover.reply = nil
                handover.awaited = false
                return reply
            }
            guard let reply else { return .continueReading }
            phase = .done
            return .answer(reply)
        case .done:
            return .fail
        }
    }

    /// Records that the connection is suspended until ``finish(with:core:)``.
    func markWaiting(connection: ConnectionHandle) {
        wasSuspended = true
        handover = Locked(Handover(connection: connection, reply: nil, awaited: true))
    }

    /// Hands over the reply and resumes the connection; libmicrohttpd then calls the access handler, which
    /// sends it. Only the first call counts. Callable from any thread.
    func finish(with response: HTTPResponse, core: ServerCore) {
        guard let handover else { return }
        let connection: ConnectionHandle? = handover.withLock { handover in
            guard handover.awaited, handover.reply == nil, let connection = handover.connection else { return nil }
            handover.reply = response
            handover.connection = nil
            return connection
        }
        guard let connection else { return }
        core.stopWaiting(self)
        MHD_resume_connection(connection.pointer)
    }
}
