extension Substring {
    /// The index of the first `byte` (ASCII) in the UTF-8 of this text, or `nil`.
    ///
    /// Searches the contiguous bytes of a native string directly: `utf8.firstIndex(of:)` steps a
    /// `String.Index` byte by byte, about five times the instructions, and request targets are searched
    /// several times per request. An ASCII byte never occurs inside a multi-byte scalar, so the index found
    /// is on a scalar boundary.
    func firstIndex(ofASCII byte: UInt8) -> Index? {
        let found: Int?? = utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: byte) }
        switch found {
        case .some(let offset): return offset.map { utf8.index(startIndex, offsetBy: $0) }
        case .none: return utf8.firstIndex(of: byte)
        }
    }

    /// Whether the UTF-8 of this text holds `byte` (ASCII), searched as ``firstIndex(ofASCII:)`` searches.
    func containsASCII(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }
}
