import Hummingbird
import Logging
import NotesServer

// Serves the notes in NOTES_DATABASE (default notes.sqlite) on 127.0.0.1:8080 until SIGTERM or
// SIGINT. Try: curl -N localhost:8080/notes/events, and in another shell
// curl -d 'buy eggs' localhost:8080/notes
let logger = Logger(label: "notes-server")
let path = Environment().get("NOTES_DATABASE") ?? "notes.sqlite"
let store = try await NotesStore(path: path)
let application = makeNotesApplication(
    store: store, streams: OpenEventStreams(),
    configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 8080)), logger: logger)
try await makeNotesServiceGroup(store: store, application: application, logger: logger).run()
