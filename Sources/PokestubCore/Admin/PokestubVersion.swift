/// The version of pokestub.
package enum PokestubVersion {
    /// Semantic version of this build.
    package static let current = "0.2.0"
}
