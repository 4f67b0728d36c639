import Foundation

extension StubServer {
    /// The absolute path of the stub root that ships with pokestub (its `stubs/` folder: recorded PokeAPI
    /// responses for the first Pokémon, species, types and lists), for
    /// `withStubServer(stubsDirectory: StubServer.shippedStubsDirectory)` from any package.
    ///
    /// It is found from where this file was compiled (`#filePath`), three folders up from
    /// `Sources/PokestubTesting/`: the checkout SwiftPM or Xcode built the package from, which is on the machine
    /// the tests run on, since PokestubTesting runs in process on macOS and Linux only. The stubs are not a
    /// SwiftPM resource: copying their thousands of files into a bundle on every build would cost more than it
    /// gives, and a checkout always holds them.
    ///
    /// When the checkout has moved since the build, the path no longer exists and `withStubServer` fails with
    /// a ``StubServerError`` naming it.
    public static var shippedStubsDirectory: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // PokestubTesting
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // the package root
            .appendingPathComponent("stubs")
            .standardizedFileURL.path
    }
}
