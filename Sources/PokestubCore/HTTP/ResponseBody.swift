import Foundation
import PokestubLocking

/// Response body bytes held at one fixed address for as long as any response uses them.
///
/// Stub bodies are built once when stubs load and then served many times; the server hands this memory to
/// the HTTP library without copying it per request. `@unchecked Sendable`: the buffer is written only in
/// `init` and is read-only afterwards, so sharing it across threads is safe; the raw pointer is what keeps the
/// compiler from seeing that.
public final class ResponseBody: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer
    /// Who owns `storage`, so `deinit` gives it back the right way.
    private let owner: Owner

    private enum Owner {
        /// Pages of its own (``pageThreshold``), unmapped at the end.
        case mapped
        /// From malloc, freed at the end.
        case allocated
        /// The storage of this `Data`, which lives as long as the body does.
        case shared(Data)
    }

    /// The number of bytes.
    public var count: Int { count_ }

    /// An empty body.
    public static let empty = ResponseBody(Data())

    /// Copies `data` into a fixed buffer.
    public init(_ data: Data) {
        let mapped: Bool
        (storage, mapped) = ResponseBody.allocate(max(data.count, 1))
        owner = mapped ? .mapped : .allocated
        data.copyBytes(to: storage)
        count_ = data.count
    }

    /// The bytes of `data`, an answer passing through once (an upstream's answer to a forwarded request),
    /// without a copy when it is large.
    ///
    /// Such a body lives for one answer, or until the journal's response-body budget drops it. A body of
    /// ``sharingThreshold`` bytes or more keeps `data` itself and serves its bytes where they are: `Data`
    /// keeps that many bytes in a reference-counted heap buffer (only up to 14 bytes live inline), this body
    /// holds a reference and never mutates it, so the buffer neither moves nor goes away while the body
    /// lives; any other holder that mutates its copy gets a copy of its own (copy-on-write). Copying a large
    /// upstream answer into a buffer of its own would cost a proxied request its largest share of CPU, most
    /// of it page faults on the fresh memory. A smaller body is copied into a buffer from malloc.
    package init(passingThrough data: Data) {
        count_ = data.count
        if data.count >= ResponseBody.sharingThreshold {
            storage = data.withUnsafeBytes { UnsafeMutableRawBufferPointer(mutating: $0) }
            owner = .shared(data)
        } else {
            storage = .allocate(byteCount: max(data.count, 1), alignment: 1)
            owner = .allocated
            data.copyBytes(to: storage)
        }
    }

    /// Bodies passing through with this many bytes or more share the bytes of their `Data`
    /// (``init(passingThrough:)``).
    package static let sharingThreshold = 4096

    /// Bodies of this many bytes or more get pages of their own.
    static let pageThreshold = 64 << 10

    /// Large bodies get pages of their own (an anonymous mmap), which go back to the system as soon as the
    /// last response using them is sent. From malloc, the 26 MB of shipped bodies that every reload replaces
    /// fragmented its heap under load: with a reload a second and 1,000 clients, RSS climbed from 350 to
    /// 536 MB in two minutes (scripts/soak.sh); with their own pages it stays between 175 and 335 MB.
    private static func allocate(_ count: Int) -> (UnsafeMutableRawBufferPointer, isMapped: Bool) {
        if count >= pageThreshold {
            let pointer = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let pointer, pointer != MAP_FAILED {
                return (UnsafeMutableRawBufferPointer(start: pointer, count: count), true)
            }
        }
        return (.allocate(byteCount: count, alignment: 1), false)
    }

    /// Copies UTF-8 text into a fixed buffer.
    public convenience init(_ text: String) {
        self.init(Data(text.utf8))
    }

    private let count_: Int

    /// Bodies made from this one (its upstream links pointed at another base URL), by a key their maker
    /// chooses. They live exactly as long as this body: when a reload replaces the stubs, the variants of the
    /// old bodies go with them. (Kept in a cache of their own, keyed by body, they outlived their bodies until
    /// the cache was next pruned: RSS climbed by 50 MB in a 30 s soak with a reload a second.)
    private let variants = Locked<[VariantKey: Variant]>([:])

    /// What a variant key names: a generation of its maker's settings and a target base URL.
    package struct VariantKey: Hashable, Sendable {
        /// Changes whenever the maker's settings change, so variants made under old settings are not reused.
        package var generation: Int
        /// The base URL the variant's links point at.
        package var target: String
        /// The upstream base URL the body's stub was recorded from, whose links the variant replaces too.
        package var recordedFrom: String?

        /// Creates a key.
        package init(generation: Int, target: String, recordedFrom: String? = nil) {
            self.generation = generation
            self.target = target
            self.recordedFrom = recordedFrom
        }
    }

    private enum Variant {
        /// The variant is this body itself (nothing to change).
        case same
        case made(ResponseBody)
    }

    /// The variant of this body for `key`: made by `make` the first time (`nil` means "the same bytes"), then
    /// the same object every time. When two threads make it at once, both get the first one stored.
    package func variant(for key: VariantKey, make: () -> ResponseBody?) -> ResponseBody {
        if let known = variants.withLock({ $0[key] }) {
            if case .made(let body) = known { return body }
            return self
        }
        let made: Variant = make().map { .made($0) } ?? .same
        let stored = variants.withLock { variants in
            if let existing = variants[key] { return existing }
            variants[key] = made
            return made
        }
        if case .made(let body) = stored { return body }
        return self
    }

    /// The ``MemoryBudget`` charge an admin answer's body holds until it has been sent and let go.
    private let heldCharge = Locked<MemoryCharge?>(nil)

    /// Keeps `charge` for as long as this body lives, so the memory budget counts an answer until the server
    /// has sent it and let it go.
    package func hold(_ charge: MemoryCharge) {
        heldCharge.withLock { $0 = charge }
    }

    /// The bytes as `Data`: a copy, or for a body sharing a `Data`'s bytes, that `Data`.
    public var data: Data {
        if case .shared(let data) = owner { return data }
        return Data(bytes: storage.baseAddress!, count: count_)
    }

    /// The body as UTF-8 text (lossy), for logs and tests.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// The first address of the bytes (valid even for an empty body).
    package var baseAddress: UnsafeRawPointer { UnsafeRawPointer(storage.baseAddress!) }

    deinit {
        switch owner {
        case .mapped: munmap(storage.baseAddress, storage.count)
        case .allocated: storage.deallocate()
        case .shared: break  // the Data goes with this body
        }
    }
}
