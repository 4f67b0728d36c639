#if os(Linux)
    import Glibc

    /// An empty `posix_spawn_file_actions_t` for `posix_spawn_file_actions_init(3)`: Glibc imports the type as
    /// a struct, made with its zero initializer.
    enum SpawnFileActions {
        /// Storage for `posix_spawn_file_actions_init`.
        static func make() -> posix_spawn_file_actions_t { posix_spawn_file_actions_t() }
    }
#endif
