import Foundation

/// Paths in the repository, found from this file.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `../shared/pokeapi` next to the repository.
    static var pokeAPIDump: String {
        root.deletingLastPathComponent().appendingPathComponent("shared/pokeapi").path
    }
}
