// The core's API speaks `JSONValue` (stub mappings, `jsonBody`, `HTTPResponse.json`, admin answers), so code that
// imports PokestubCore gets the JSON type with it, as it did when the type lived here.
@_exported import PokestubJSON
