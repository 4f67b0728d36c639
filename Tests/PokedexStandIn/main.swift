import Foundation
import PokemonClient

// A stand-in for the iOS app of Docs/XCUITest.md, for running that guide's UI tests on Linux: it builds its
// networking as the guide's step 1 says, `PokemonClient()` reading POKEMON_URL from the process environment
// (which XCUIApplication's launchEnvironment sets), and shows its "screen" as lines on standard output, one
// `text: …` line per label. Its one screen is the first page of the Pokémon list; `tap NAME` on standard input
// opens that Pokémon's detail (its name and `#id`), fetched by the id in its list entry's URL, as the app's
// detail screen does. A failed request shows as `error: …`; `ready` follows every screen, so a reader knows
// the screen is complete. End of input ends the process.

/// Writes lines to standard output at once, unbuffered, so the test sees the screen as soon as it is drawn.
func write(_ lines: [String]) {
    FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
}

func show(_ labels: [String]) {
    write(labels.map { "text: \($0)" } + ["ready"])
}

func showError(_ error: any Error) {
    write(["error: \(error)", "ready"])
}

let client: PokemonClient
do {
    client = try PokemonClient()  // POKEMON_URL, else https://pokeapi.co
} catch {
    showError(error)
    exit(1)
}

var entries: [NamedAPIResource] = []
do {
    entries = try await client.pokemonPage(offset: 0, limit: 20).results
    show(entries.map(\.name))
} catch {
    showError(error)
}
while let line = readLine() {
    guard line.hasPrefix("tap ") else { continue }
    let name = String(line.dropFirst(4))
    guard let entry = entries.first(where: { $0.name == name }), let id = Int(entry.url.lastPathComponent) else {
        show([])
        continue
    }
    do {
        let pokemon = try await client.pokemon(id: id)
        show([pokemon.name, "#\(pokemon.id)"])
    } catch {
        showError(error)
    }
}
