import Persistance
import Synchronization

/// The notes of the service, in one database file: adds notes and observes the latest ones.
public final class NotesStore: Sendable {
    /// The database the notes are in.
    public let database: Database
    private let fetches = Mutex(0)

    /// How many times an observation of the latest notes has fetched them, all observations
    /// together: it stops growing when every observation has ended.
    public var observedFetchCount: Int { fetches.withLock { $0 } }

    /// Opens (creating if needed) the notes database at `path`.
    public init(path: String) async throws {
        database = try await Database.open(configuration: DatabaseConfiguration(path: path))
        try await database.write { conn in
            try conn.execute("CREATE TABLE IF NOT EXISTS note(id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
    }

    /// Adds a note with `text` and returns it, with its row id.
    public func add(_ text: String) async throws -> Note {
        try await database.write { conn in
            try conn.execute("INSERT INTO note(text) VALUES (?)", [text])
            return Note(id: conn.lastInsertRowID, text: text)
        }
    }

    /// Observes the newest `limit` notes, newest first: the current ones at once, then again
    /// after each commit that changed the `note` table.
    public func latestNotes(limit: Int = 10) -> ValueObservation<[Note]> {
        database.observe { [self] conn in
            self.fetches.withLock { $0 += 1 }
            return try conn.fetchAll("SELECT id, text FROM note ORDER BY id DESC LIMIT ?", [limit]).map { row in
                Note(id: try row.value(at: 0), text: try row.value(at: 1))
            }
        }
    }
}
