import PokestubCore

// The types a closure route reads and writes, reachable through `import PokestubTesting`: the server's own
// types (PokestubCore is not a product), under the same names, so test code can write `HTTPResponse(status: 201)`.
// `JSONValue`, which `HTTPResponse.json` takes, is PokestubJSON's, re-exported whole (PokestubJSON+Export.swift).

/// The request a ``StubRoute`` handler gets: `method`, `path` (percent-decoded), `queryValues(_:)`, `headers`,
/// `body` and `bodyText`, as the server received them.
public typealias HTTPRequest = PokestubCore.HTTPRequest

/// What a ``StubRoute`` handler answers: `HTTPResponse(status:headers:body:delayMilliseconds:fault:)`, or
/// `.json(_:status:pretty:)` and `.text(_:status:)`.
public typealias HTTPResponse = PokestubCore.HTTPResponse

/// Header fields of an ``HTTPRequest`` or ``HTTPResponse``, in order, names compared case-insensitively.
public typealias HTTPHeaders = PokestubCore.HTTPHeaders

/// The body bytes of an ``HTTPResponse``: `ResponseBody("text")`, `ResponseBody(data)`, or `.empty`.
public typealias ResponseBody = PokestubCore.ResponseBody
