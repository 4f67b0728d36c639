import PokestubCore

// Types a closure route reads and writes that are the server's own (PokestubCore is not a product), reachable
// through `import PokestubTesting` under the same names. ``HTTPRequest`` and ``HTTPResponse`` are this
// library's own types; `JSONValue`, which `HTTPResponse.json` takes, is PokestubJSON's, re-exported whole
// (PokestubJSON+Export.swift).

/// Header fields of an ``HTTPRequest`` or ``HTTPResponse``, in order, names compared case-insensitively:
/// `HTTPHeaders(["Cache-Control": "no-store"])`, `headers["content-type"]`.
public typealias HTTPHeaders = PokestubCore.HTTPHeaders

/// The body bytes of a response, as the server holds them.
@available(
    *, deprecated, message: "an HTTPResponse body is Data: pass Data or a String to HTTPResponse(status:headers:body:)"
)
public typealias ResponseBody = PokestubCore.ResponseBody
