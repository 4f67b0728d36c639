#if canImport(Darwin)
    import Darwin

    /// An empty `posix_spawn_file_actions_t` for `posix_spawn_file_actions_init(3)`: Darwin declares the type
    /// as an opaque pointer (`typedef void *posix_spawn_file_actions_t`), imported as an optional raw pointer
    /// that `posix_spawn_file_actions_init` allocates.
    ///
    /// Written against Apple's posix_spawn_file_actions_init(3) and posix_spawn(2) manual pages
    /// (<https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/posix_spawn.2.html>)
    /// and never compiled here (no Mac was available).
    enum SpawnFileActions {
        /// Storage for `posix_spawn_file_actions_init`.
        static func make() -> posix_spawn_file_actions_t? { nil }
    }
#endif
