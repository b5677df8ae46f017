extension Database {
    /// Opens the database named `name`, configured by its target in `registry`.
    ///
    /// The name picks the target (`game_main.sqlite` → `game`), which answers the file path,
    /// the encryption keys and the migrator; then the database opens like
    /// `open(configuration:readerCount:)`: keys applied, migrations run, one shared
    /// executor per file.
    public static func open(_ name: String, registry: TargetRegistry = .shared, readerCount: Int? = nil) throws -> Database {
        try open(configuration: .resolve(name, registry: registry), readerCount: readerCount)
    }

    /// Opens the database named `name` like `open(_:registry:readerCount:)`, suspending the
    /// calling task instead of blocking its thread while it opens.
    public static func open(
        _ name: String, registry: TargetRegistry = .shared, readerCount: Int? = nil
    ) async throws -> Database {
        try await open(configuration: .resolve(name, registry: registry), readerCount: readerCount)
    }
}
