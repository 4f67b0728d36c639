import Foundation
import PokemonClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app side of the POST example: sends a trainer's favourite Pokémon as JSON to
/// `{POKEMON_URL}/api/v2/favorites/`. PokeAPI itself is read-only; this stands for an app's own backend that
/// shares the base URL, to show how a test checks the body an app sent.
struct FavoritesUploader {
    struct Favorites: Encodable {
        struct Entry: Encodable {
            var id: Int
            var name: String
        }

        var trainer: String
        var favorites: [Entry]
    }

    let configuration: PokemonClientConfiguration

    /// Posts the favourites and returns the status code.
    func upload(_ favorites: Favorites) async throws -> Int {
        var request = URLRequest(url: URL(string: configuration.baseURL.absoluteString + "/api/v2/favorites/")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        request.httpBody = try encoder.encode(favorites)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
