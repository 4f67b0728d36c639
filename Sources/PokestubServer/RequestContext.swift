import CMicroHTTPD
import Foundation
import PokestubCore
import PokestubLocking

/// One request's progress through libmicrohttpd's calls: the raw target, the body so far, and the reply
/// when it comes from another thread.
final class RequestContext: Sendable {
    /// The request target exactly as received.
    let rawURI: String
    private let state = Locked(State())

    private struct State {
        var phase = Phase.headers
        var headers = HTTPHeaders()
        var body = Data()
        var bodyTooLarge = false
        var connection: ConnectionHandle?
        var reply: HTTPResponse?
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
    var bodyBytes: Int {
        state.withLock { $0.body.count }
    }

    /// Whether the access handler has not been called for this request yet.
    var isStarting: Bool {
        state.withLock { $0.phase == .headers }
    }

    /// The header fields, read once on libmicrohttpd's first call for the request.
    var headers: HTTPHeaders {
        get { state.withLock { $0.headers } }
        set { state.withLock { $0.headers = newValue } }
    }

    /// Ends the request before its body: the access handler answered it on its first call.
    func refuse() {
        state.withLock { $0.phase = .done }
    }

    /// Advances on one access-handler call.
    func step(bodyPiece: UnsafePointer<CChar>?, size: Int, limit: Int) -> Step {
        state.withLock { state in
            switch state.phase {
            case .headers:
                state.phase = .body
                return .continueReading
            case .body:
                if let bodyPiece, size > 0 {
                    if state.body.count + size > limit {
                        state.bodyTooLarge = true
                        state.body = Data()
                    } else if !state.bodyTooLarge {
                        state.body.append(UnsafeRawPointer(bodyPiece).assumingMemoryBound(to: UInt8.self), count: size)
                    }
                    return .continueReading
                }
                if state.bodyTooLarge {
                    state.phase = .done
                    return .answer(
                        .text("request body larger than the limit of \(limit) bytes\n", status: 413))
                }
                state.phase = .waiting
                return .handle(body: state.body)
            case .waiting:
                guard let reply = state.reply else { return .continueReading }
                state.phase = .done
                state.reply = nil
                return .answer(reply)
            case .done:
                return .fail
            }
        }
    }

    /// Records that the connection is suspended until ``finish(with:core:)``.
    func markWaiting(connection: ConnectionHandle) {
        state.withLock { $0.connection = connection }
    }

    /// Hands over the reply and resumes the connection; libmicrohttpd then calls the access handler, which
    /// sends it. Only the first call counts.
    func finish(with response: HTTPResponse, core: ServerCore) {
        let connection: ConnectionHandle? = state.withLock { state in
            guard state.phase == .waiting, state.reply == nil, let connection = state.connection else { return nil }
            state.reply = response
            state.connection = nil
            return connection
        }
        guard let connection else { return }
        core.stopWaiting(self)
        MHD_resume_connection(connection.pointer)
    }
}
