/// The version of pokestub.
public enum PokestubVersion {
    /// Semantic version of this build.
    public static let current = "0.2.0"
}
