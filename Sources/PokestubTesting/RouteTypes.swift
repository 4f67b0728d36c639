import PokestubCore

// Types a closure route reads and writes that are the server's own (PokestubCore is not a product), reachable
// through `import PokestubTesting` under the same names. ``RouteRequest`` and ``RouteResponse`` are this
// library's own types; `JSONValue`, which `RouteResponse.json` takes, is PokestubJSON's, re-exported whole
// (PokestubJSON+Export.swift).

/// Header fields of a ``RouteRequest`` or ``RouteResponse``, in order, names compared case-insensitively:
/// `HTTPHeaders(["Cache-Control": "no-store"])`, `headers["content-type"]`.
public typealias HTTPHeaders = PokestubCore.HTTPHeaders

/// The body bytes of a response, as the server holds them.
@available(
    *, deprecated, message: "a RouteResponse body is Data: pass Data or a String to RouteResponse(status:headers:body:)"
)
public typealias ResponseBody = PokestubCore.ResponseBody
