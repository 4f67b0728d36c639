// The client's API speaks `JSONValue` (stub bodies, metadata, `equalToJson`, journal entries), so
// `import PokestubClient` alone gives tests the JSON type to write them with.
@_exported import PokestubJSON
