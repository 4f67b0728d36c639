// Stand-ins, for scripts/check-darwin.sh, for the PokestubServer declarations the checked files use and that
// live in files it cannot check (they import Foundation). Each declaration under a `// same as PATH` line must
// start, as written up to its body, a line of PATH: the check fails when the real declaration changes.

import PokestubCore

// same as Sources/PokestubServer/HTTPServer.swift
package final class HTTPServer: Sendable {
    // same as Sources/PokestubServer/HTTPServer.swift
    package static func baseURL(host: String, port: Int) -> String { "" }
}

// same as Sources/PokestubServer/ResponseWriter.swift
enum ResponseWriter {
    // same as Sources/PokestubServer/ResponseWriter.swift
    static func addHeaders(of response: HTTPResponse, to mhdResponse: OpaquePointer) {}
}
