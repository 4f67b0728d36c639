import PokestubLocking

/// The memory one daemon may hold for what clients give it or ask of it (config `limits.maxMemoryBytes`,
/// default 1 GiB): request and response bodies in every request journal, runtime stubs added through the
/// admin API, admin answers while they are built and sent, request bodies parsed as JSON for matching, and
/// upstream answers' bodies while they arrive.
///
/// What counts, in bytes:
/// - **journals**: each event's request body and response body (a stub's body, shared with the stub, counts
///   in full, as in the journal's own ``RequestJournal/maxResponseBodyBytes``), in the daemon's journal and
///   every session's;
/// - **stubs**: a stub added or replaced through `POST`/`PUT /__admin/mappings` (the daemon's or a session's)
///   counts ``stubCost(mappingBytes:)``, three times its mapping's JSON text, for as long as the stub lives;
/// - **answers**: an admin answer built whole counts an estimate made before building it
///   (``answerCost(bodyBytes:events:)``) until it has been sent; a streamed listing counts one piece;
/// - **parsed bodies**: a request body parsed as JSON by `equalToJson` or `matchesJsonPath` counts
///   ``JSONDocument/costBound(sourceBytes:)``, five times its bytes, from its parse until the request's
///   matching is over (``MatchBudget``); one parsed as XML counts twelve times its bytes while its tree lives
///   (`equalToXml`), twice that while an XPath's document lives too (`matchesXPath`);
/// - **upstream bodies**: an upstream answer's body (record, record-missing and proxy modes) counts its bytes
///   while it arrives, taken a mebibyte at a time, until the exchange is over: twelve answers that inflate to
///   256 MiB each held 2 GB before.
///
/// Journals give way, the rest is refused: journals together hold at most three quarters of the limit and
/// never more than what stubs and answers leave, dropping their oldest events (and then older response
/// bodies) when they would pass it, as they do for their own budgets. Stubs, answers and parsed bodies take
/// what journals do not hold; past the limit a stub is refused with 507, an answer with 429 and `Retry-After`
/// (``AdminError/insufficientStorage(_:)``, ``AdminError/busy(_:)``), and a request whose body cannot be parsed
/// with 507 (`StubEngine`), an upstream answer with 502. A quarter is thus always free of
/// journals, so full journals alone never make an admin write fail. Not counted: the stubs loaded from
/// files, body files (read from disk, large ones sent from the file), and what libmicrohttpd holds per
/// connection (bounded by `limits.maxHeaderBytes` and `limits.maxConnections`).
///
/// Journals count what they are granted, settled in batches (``grantJournal(requestBodies:requestBodyLimit:bytes:beyondLimits:)``):
/// at least the bodies they hold, and at most a little more per journal (``RequestJournal``).
///
/// Thread-safe: one lock, which calls nothing out of it.
package final class MemoryBudget: Sendable {
    /// The most bytes counted at once (config `limits.maxMemoryBytes`).
    package let limit: Int
    private let usage = Locked(Usage())

    /// What the budget holds now, by kind, in bytes.
    package struct Usage: Sendable, Equatable {
        /// Request and response bodies in every journal.
        package var journals = 0
        /// Runtime stubs added through the admin API.
        package var stubs = 0
        /// Admin answers being built or sent.
        package var answers = 0
        /// Request bodies parsed as JSON for matching.
        package var parsedBodies = 0
        /// Upstream answers' bodies while they arrive.
        package var upstreamBodies = 0
        /// The part of ``journals`` that is request bodies, counted against the journals' request-body budget
        /// (``JournalBodyBudget``) too.
        var journalRequestBodies = 0
        /// Everything counted.
        package var total: Int { journals + stubs + answers + parsedBodies + upstreamBodies }
    }

    /// What a charge is for: stubs and parsed bodies are refused with 507 past the limit, answers with 429.
    package enum Kind: Sendable {
        /// A runtime stub.
        case stub
        /// An admin answer.
        case answer
        /// A request body parsed as JSON for matching.
        case parsedBody
        /// An upstream answer's body while it arrives (refused: the answer is a 502).
        case upstreamBody
    }

    /// Creates a budget of `limit` bytes.
    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The bytes counted now, by kind.
    package var used: Usage { usage.withLock { $0 } }

    /// The most the journals together may hold while stubs and answers hold nothing: three quarters of
    /// ``limit``.
    package var journalLimit: Int { limit - limit / 4 }

    /// A charge of `bytes` for `kind`, or `nil` when it would take the budget past ``limit``. The charge
    /// holds its bytes until it is released or deallocated.
    package func charge(_ bytes: Int, for kind: Kind) -> MemoryCharge? {
        let bytes = max(0, bytes)
        let granted = usage.withLock { usage -> Bool in
            guard usage.total + bytes <= limit else { return false }
            switch kind {
            case .stub: usage.stubs += bytes
            case .answer: usage.answers += bytes
            case .parsedBody: usage.parsedBodies += bytes
            case .upstreamBody: usage.upstreamBodies += bytes
            }
            return true
        }
        return granted ? MemoryCharge(budget: self, bytes: bytes, kind: kind) : nil
    }

    /// Why a charge was refused, for a JSON reason: e.g. `the memory budget (limits.maxMemoryBytes) of
    /// 1073741824 bytes has 1024 free: journals hold 805306368, runtime stubs 268434432, admin answers 0,
    /// parsed bodies 0`.
    package var refusal: String {
        let now = used
        return "the memory budget (limits.maxMemoryBytes) of \(limit) bytes has \(max(0, limit - now.total)) free: "
            + "journals hold \(now.journals), runtime stubs \(now.stubs), admin answers \(now.answers), "
            + "parsed bodies \(now.parsedBodies), upstream bodies \(now.upstreamBodies)"
    }

    /// The bytes that could be charged now.
    package var available: Int { usage.withLock { max(0, limit - $0.total) } }

    func release(_ bytes: Int, for kind: Kind) {
        guard bytes != 0 else { return }
        usage.withLock { usage in
            switch kind {
            case .stub: usage.stubs -= bytes
            case .answer: usage.answers -= bytes
            case .parsedBody: usage.parsedBodies -= bytes
            case .upstreamBody: usage.upstreamBodies -= bytes
            }
        }
    }

    /// Grants a journal up to `bytes` more of its request and response bodies, and up to `requestBodies` more
    /// of its request bodies against the journals' shared request-body budget of `requestBodyLimit` bytes
    /// (``JournalBodyBudget``): each as much as is free, journals together holding at most ``journalLimit``
    /// and never more than the other kinds leave. With `beyondLimits` the grant is whole whatever is free: for
    /// a journal's newest event, which it always keeps.
    ///
    /// A journal settles with the budget in batches (``RequestJournal``): it holds grants, appends within them
    /// under its own lock alone, and comes here, between its own lock's acquisitions and never inside one,
    /// only when an append needs more or it holds much more than it needs. One lock for both budgets.
    ///
    /// - Returns: The bytes granted, each between 0 and what was asked.
    func grantJournal(
        requestBodies: Int, requestBodyLimit: Int, bytes: Int, beyondLimits: Bool = false
    ) -> (requestBodies: Int, bytes: Int) {
        usage.withLock { usage in
            var granted = (requestBodies: max(0, requestBodies), bytes: max(0, bytes))
            if !beyondLimits {
                let free = min(journalLimit - usage.journals, limit - usage.total)
                granted.bytes = min(granted.bytes, max(0, free))
                granted.requestBodies = min(
                    granted.requestBodies, max(0, requestBodyLimit - usage.journalRequestBodies))
            }
            usage.journals += granted.bytes
            usage.journalRequestBodies += granted.requestBodies
            return granted
        }
    }

    /// Gives back grants a journal no longer needs: `bytes` of its bodies, `requestBodies` of its request
    /// bodies.
    func releaseJournal(requestBodies: Int, bytes: Int) {
        guard requestBodies != 0 || bytes != 0 else { return }
        usage.withLock { usage in
            usage.journals -= bytes
            usage.journalRequestBodies -= requestBodies
        }
    }

    /// What a runtime stub counts: three times the bytes of its mapping's JSON text, for the text kept as
    /// the stub's source, its parsed definition, and the response body made from it (twenty 10 MB stubs held
    /// 618 MB, 3.1 times their text).
    package static func stubCost(mappingBytes: Int) -> Int {
        3 * mappingBytes
    }

    /// What an admin answer built whole counts before it is built: three times the bodies it shows (a body
    /// appears as text and as base64, and in the JSON tree before its text is written), plus 2 KiB for each
    /// serve event or stub in it.
    package static func answerCost(bodyBytes: Int, events: Int) -> Int {
        3 * bodyBytes + 2_048 * events
    }
}

/// Bytes held against a ``MemoryBudget``, given back by ``release()`` or when the charge is deallocated:
/// kept with what it pays for (a stub, an answer's body), it lasts exactly as long as that memory does.
package final class MemoryCharge: Sendable {
    /// The bytes held.
    package let bytes: Int
    private let budget: MemoryBudget
    private let kind: MemoryBudget.Kind
    private let released = Locked(false)

    init(budget: MemoryBudget, bytes: Int, kind: MemoryBudget.Kind) {
        self.budget = budget
        self.bytes = bytes
        self.kind = kind
    }

    /// Gives the bytes back now; later calls, and deallocation, do nothing more.
    package func release() {
        let first = released.withLock { released -> Bool in
            defer { released = true }
            return !released
        }
        if first { budget.release(bytes, for: kind) }
    }

    deinit {
        release()
    }
}
