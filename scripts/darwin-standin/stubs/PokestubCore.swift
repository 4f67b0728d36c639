// Stand-ins, for scripts/check-darwin.sh, for the PokestubCore declarations the checked files use and that
// live in files it cannot check (they import Foundation, or need more of the module than is checked). Each
// declaration under a `// same as PATH` line must start, as written up to its body, a line of PATH: the check
// fails when the real declaration changes, so a stand-in cannot drift from it.

// same as Sources/PokestubCore/HTTP/HTTPHeaders.swift
public struct HTTPHeaders {
    // same as Sources/PokestubCore/HTTP/HTTPHeaders.swift
    public init(_ fields: [(name: String, value: String)] = []) {}
}
