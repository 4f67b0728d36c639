import PokemonClient

/// The app side of the list-screen example: a view model that loads the first page of the Pokémon list from
/// any ``PokemonService``, the way a SwiftUI list screen would.
struct PokemonListModel {
    let service: any PokemonService
    let pageSize: Int

    /// The names on the first page.
    func load() async throws(PokemonClientError) -> [String] {
        try await service.pokemonPage(offset: 0, limit: pageSize).results.map(\.name)
    }
}
