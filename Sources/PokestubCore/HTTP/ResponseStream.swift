import Foundation
import PokestubLocking

/// A response body made piece by piece while it is sent, so that a large answer (a full request journal)
/// never exists whole in memory: the server asks for the next piece only when the previous one has gone
/// out, and sends the body chunked (RFC 9112 §7.1), its length not being known in advance.
///
/// The pieces are numbered `0..<count`; `piece(n)` makes the `n`th when it is needed, from data the maker
/// captured (a snapshot of the journal's events), so the stream does not change while it is sent.
package final class ResponseStream: Sendable {
    /// How many pieces the body has.
    package let count: Int
    private let piece: @Sendable (Int) -> Data
    private let position = Locked(0)
    /// The ``MemoryBudget`` charge the stream holds while it is sent.
    private let heldCharge = Locked<MemoryCharge?>(nil)

    /// Keeps `charge` for as long as this stream lives (until the server has sent it and let it go).
    package func hold(_ charge: MemoryCharge) {
        heldCharge.withLock { $0 = charge }
    }

    /// Creates a stream of `count` pieces made by `piece`.
    package init(count: Int, piece: @escaping @Sendable (Int) -> Data) {
        self.count = count
        self.piece = piece
    }

    /// The next piece, or `nil` after the last.
    package func next() -> Data? {
        let index: Int? = position.withLock { position in
            guard position < count else { return nil }
            defer { position += 1 }
            return position
        }
        return index.map(piece)
    }

    /// The whole body at once, for callers in the same process (tests, the in-process admin API).
    package func collected() -> Data {
        var data = Data()
        for index in 0..<count { data.append(piece(index)) }
        return data
    }
}
