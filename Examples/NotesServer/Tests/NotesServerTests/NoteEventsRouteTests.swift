import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NotesServer
import Testing

/// `GET /notes/events` on a live server: an event for each write, and a client that disconnects
/// ends its observation.
@Suite(.timeLimit(.minutes(1))) struct NoteEventsRouteTests {
    /// A notes store in a new file of its own.
    static func makeStore() async throws -> (NotesStore, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-server-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("notes.sqlite").path
        return (try await NotesStore(path: path), path)
    }

    private func makeApplication(store: NotesStore, streams: OpenEventStreams) -> some ApplicationProtocol {
        makeNotesApplication(
            store: store, streams: streams,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            logger: Logger(label: "notes-server-test"))
    }

    @Test func eachWriteSendsOneEventWithTheLatestNotes() async throws {
        let (store, _) = try await Self.makeStore()
        let streams = OpenEventStreams()
        try await makeApplication(store: store, streams: streams).test(.live) { client in
            let notes = NotesClient(port: try #require(client.port))
            var events = try await notes.events()
            #expect(try await events.next() == [])
            var added: [Note] = []
            for text in ["buy eggs", "call Ann", "c'est ça"] {
                let note = try await notes.add(text)
                #expect(note.text == text)
                added.insert(note, at: 0)
                #expect(try await events.next() == added)
            }
            #expect(streams.count == 1)
        }
        try await store.database.close()
    }

    @Test func aClientThatDisconnectsEndsItsObservation() async throws {
        let (store, _) = try await Self.makeStore()
        let streams = OpenEventStreams()
        try await makeApplication(store: store, streams: streams).test(.live) { client in
            let notes = NotesClient(port: try #require(client.port))
            let (firstEvent, firstEventSeen) = AsyncStream.makeStream(of: Void.self)
            let reading = Task {
                var events = try await notes.events()
                _ = try await events.next()
                firstEventSeen.yield()
                _ = try await events.next()  // nothing changes: waits until cancelled
            }
            var firstEvents = firstEvent.makeAsyncIterator()
            await firstEvents.next()
            #expect(streams.count == 1)

            reading.cancel()  // the client goes away, with no event pending
            await streams.wait(untilCount: 0)  // the handler returned, its observation released
            let fetchesWhenEnded = store.observedFetchCount

            // A second client sees the next write: only its own observation fetches.
            var events = try await notes.events()
            #expect(try await events.next() == [])
            let note = try await notes.add("after the disconnect")
            #expect(try await events.next() == [note])
            #expect(store.observedFetchCount == fetchesWhenEnded + 2)
        }
        try await store.database.close()
    }
}
