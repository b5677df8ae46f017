import Hummingbird
import NIOCore
import Logging
import PersistanceServiceLifecycle
import ServiceLifecycle

/// The notes service's HTTP application on `configuration`'s address, serving the routes of
/// `addNotesRoutes(to:store:streams:)`; `onServerRunning` gets the listening channel.
public func makeNotesApplication(
    store: NotesStore, streams: OpenEventStreams, configuration: ApplicationConfiguration,
    logger: Logger, onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router()
    addNotesRoutes(to: router, store: store, streams: streams)
    return Application(
        router: router, configuration: configuration, onServerRunning: onServerRunning, logger: logger)
}

/// The service group that runs `application` with the notes database: SIGTERM or SIGINT (or
/// `ServiceGroup.triggerGracefulShutdown()`) stops the server first (its event streams end,
/// requests running finish), then closes the database once its submitted writes committed.
public func makeNotesServiceGroup(
    store: NotesStore, application: some ApplicationProtocol, logger: Logger
) -> ServiceGroup {
    ServiceGroup(
        services: [DatabaseService(store.database), application],  // the database first: it stops last
        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
}
