import Foundation
import Hummingbird
import Logging
import NIOCore
import NotesServer
import Persistance
import Testing

/// The notes service's graceful shutdown (what SIGTERM does) while a client streams events.
@Suite(.timeLimit(.minutes(1))) struct NotesServiceShutdownTests {
    @Test func gracefulShutdownEndsOpenStreamsClosesTheDatabaseAndKeepsAcceptedWrites() async throws {
        let (store, path) = try await NoteEventsRouteTests.makeStore()
        let streams = OpenEventStreams()
        let logger = Logger(label: "notes-server-test")
        let (ports, portFound) = AsyncStream.makeStream(of: Int.self)
        let application = makeNotesApplication(
            store: store, streams: streams,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)), logger: logger,
            onServerRunning: { channel in portFound.yield(channel.localAddress?.port ?? 0) })
        let group = makeNotesServiceGroup(store: store, application: application, logger: logger)
        let running = Task { try await group.run() }
        var portIterator = ports.makeAsyncIterator()
        let notes = NotesClient(port: try #require(await portIterator.next()))

        var events = try await notes.events()
        #expect(try await events.next() == [])
        let kept = try await notes.add("written before the shutdown")
        #expect(try await events.next() == [kept])

        await group.triggerGracefulShutdown()
        #expect(try await events.next() == nil)  // the server finished the stream
        try await running.value  // the group returned: server stopped, database closed
        #expect(streams.count == 0)
        #expect(store.database.isClosed)

        let reopened = try Connection(path: path)
        #expect(try reopened.fetchAll(String.self, "SELECT text FROM note") == [kept.text])
        try reopened.close()
    }
}
