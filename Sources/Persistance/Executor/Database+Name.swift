extension Database {
    /// Opens the database named `name`, configured by its target in `registry`, suspending
    /// the calling task while it opens.
    ///
    /// The name picks the target (`game_main.sqlite` → `game`), which answers the file path,
    /// the encryption keys and the migrator; then the database opens like
    /// `open(configuration:readerCount:)`: keys applied, migrations run, one shared
    /// executor per file.
    public static func open(
        _ name: String, registry: TargetRegistry = .shared, readerCount: Int? = nil
    ) async throws -> Database {
        try await open(configuration: .resolve(name, registry: registry), readerCount: readerCount)
    }

    /// Opens the database named `name` like `open(_:registry:readerCount:)`, blocking the
    /// calling thread instead of suspending a task while it opens (for code that cannot await).
    public static func openSync(_ name: String, registry: TargetRegistry = .shared, readerCount: Int? = nil) throws -> Database {
        try openSync(configuration: .resolve(name, registry: registry), readerCount: readerCount)
    }
}
