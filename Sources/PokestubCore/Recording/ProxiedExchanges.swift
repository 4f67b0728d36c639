import Foundation
import PokestubLocking

/// Upstream exchanges passed on without being recorded (proxy mode, filtered requests), kept so that
/// `POST /__admin/recordings/snapshot` can turn them into stubs later, as WireMock's snapshot does.
///
/// Bounded: at most ``limit``'s count of exchanges and bytes of bodies; the oldest go first beyond either.
final class ProxiedExchanges: Sendable {
    /// One request and the upstream's answer, under the serve event's id.
    struct Exchange: Sendable {
        var eventID: UUID
        var request: HTTPRequest
        var response: UpstreamResponse
        /// The upstream base URL it went to.
        var upstream: String

        var bytes: Int { request.body.count + response.body.count }
    }

    /// The most exchanges kept, and the most body bytes (requests and responses) they may hold.
    static let limit = (count: 1_000, bytes: 64 << 20)

    private let state = Locked((exchanges: [Exchange](), bytes: 0))

    /// Keeps an exchange, dropping the oldest beyond the limits.
    func keep(_ exchange: Exchange) {
        state.withLock { state in
            state.exchanges.append(exchange)
            state.bytes += exchange.bytes
            while state.exchanges.count > ProxiedExchanges.limit.count
                || (state.bytes > ProxiedExchanges.limit.bytes && !state.exchanges.isEmpty)
            {
                state.bytes -= state.exchanges.removeFirst().bytes
            }
        }
    }

    /// Takes out the exchanges a snapshot asks for, oldest first.
    ///
    /// - Parameters:
    ///   - journaled: The serve events the journal still holds: an exchange whose event is gone is not taken.
    ///   - spec: The snapshot's `ids` and `filters`.
    /// - Returns: The exchanges taken; they are no longer kept.
    func take(journaled: Set<UUID>, matching spec: RecordSpec) -> [Exchange] {
        state.withLock { state in
            let chosen = state.exchanges.filter { exchange in
                journaled.contains(exchange.eventID) && (spec.eventIDs?.contains(exchange.eventID) ?? true)
                    && (spec.filter?.matches(exchange.request) ?? true)
            }
            let taken = Set(chosen.map(\.eventID))
            state.exchanges.removeAll { taken.contains($0.eventID) }
            state.bytes = state.exchanges.reduce(0) { $0 + $1.bytes }
            return chosen
        }
    }
}
