// Stand-ins, for scripts/check-darwin.sh, for the PokestubCore declarations the checked files use and that
// live in files it cannot check (they import Foundation, or need more of the module than is checked). Each
// declaration under a `// same as PATH` line must start, as written up to its body, a line of PATH: the check
// fails when the real declaration changes, so a stand-in cannot drift from it.

// same as Sources/PokestubCore/HTTP/HTTPHeaders.swift
public struct HTTPHeaders: Sendable, Hashable {
    // same as Sources/PokestubCore/HTTP/HTTPHeaders.swift
    public init(_ fields: [(name: String, value: String)] = []) {}
}

// same as Sources/PokestubCore/HTTP/HTTPResponse.swift
package struct HTTPResponse: Sendable {
    // same as Sources/PokestubCore/HTTP/HTTPResponse.swift
    package var status: Int
    // same as Sources/PokestubCore/HTTP/HTTPResponse.swift
    package var headers: HTTPHeaders
    // same as Sources/PokestubCore/HTTP/HTTPResponse.swift
    package var body: ResponseBody
    // same as Sources/PokestubCore/HTTP/HTTPResponse.swift
    package var streamedFile: StreamedFile?
    // same as Sources/PokestubCore/HTTP/HTTPResponse.swift
    package var stream: ResponseStream?
    // same as Sources/PokestubCore/HTTP/HTTPResponse.swift
    package var fault: Fault?
    // same as Sources/PokestubCore/HTTP/HTTPResponse.swift
    package var headContentLength: Int?
    // same as Sources/PokestubCore/HTTP/HTTPResponse.swift
    package var isServedAgain = false
    // same as Sources/PokestubCore/HTTP/HTTPResponse.swift
    package enum Fault: String, Sendable, CaseIterable {
        case standIn
    }
}

// same as Sources/PokestubCore/HTTP/ResponseBody.swift
public final class ResponseBody: @unchecked Sendable {
    // same as Sources/PokestubCore/HTTP/ResponseBody.swift
    public var count: Int { 0 }
    // same as Sources/PokestubCore/HTTP/ResponseBody.swift
    package var baseAddress: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1)! }
}

// same as Sources/PokestubCore/HTTP/ResponseStream.swift
package final class ResponseStream: Sendable {
}
