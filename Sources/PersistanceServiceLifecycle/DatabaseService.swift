import Persistance
import ServiceLifecycle

/// Runs databases as a service of a swift-service-lifecycle `ServiceGroup`, so a server's
/// graceful shutdown closes them cleanly.
///
/// ```swift
/// let db = try await Database.open("notes_main.sqlite")
/// let group = ServiceGroup(
///     services: [DatabaseService(db), httpServer],   // the database first: it stops last
///     gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
///
/// On graceful shutdown it closes each database with `Database.closeGracefully()`: new work
/// fails with `DatabaseError.Kind.databaseClosed`, work already submitted finishes and
/// commits, every change stream and value observation ends (a handler streaming one
/// returns), then the connections close. A group shuts its services down in the reverse of
/// their order, so list the databases before the services that use them. If the group
/// cancels the service instead, the databases close at once (`Database.close()`: queued work
/// fails, running work finishes).
public struct DatabaseService: Service {
    /// The databases the service closes.
    public let databases: [Database]

    /// A service that closes `databases` when its group shuts down.
    public init(_ databases: Database...) {
        self.databases = databases
    }

    /// A service that closes `databases` when its group shuts down.
    public init(databases: [Database]) {
        self.databases = databases
    }

    /// Waits for the group's graceful shutdown (or cancellation), then closes every database.
    /// - Throws: the first error met while closing a connection.
    public func run() async throws {
        let graceful: Bool
        do {
            try await gracefulShutdown()
            graceful = true
        } catch {
            graceful = false
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for database in databases {
                group.addTask { graceful ? try await database.closeGracefully() : try await database.close() }
            }
            try await group.waitForAll()
        }
    }
}
