import Persistance

/// Opens the database once with its keys (a plaintext file is encrypted in place on the
/// way), reports `opened` and closes it: the tests kill or stop it while it converts.
func runConversion(_ arguments: CrashWriterArguments) async throws {
    var configuration = DatabaseConfiguration(path: arguments.path)
    configuration.secretKeys = arguments.keys
    let db = try await Database.open(configuration: configuration)
    report("opened")
    try await db.close()
}
