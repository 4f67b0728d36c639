// Closure routes answer `RouteResponse.json(_:)` with a `JSONValue`, so `import PokestubTesting` alone gives tests
// the JSON type to write them with: the same type PokestubClient's stub builder takes.
@_exported import PokestubJSON
