// The scale-out demo: one app instance of several sharing a PostgreSQL database.
//
//     persistance-postgres-demo NAME PEER [COUNT]
//
// Opens the database that PERSISTANCE_POSTGRES_URL names, migrates it (instances that start
// together apply each step once), observes the messages PEER writes, writes COUNT messages of
// its own, and ends when it has seen all of PEER's through observation (exit status 1 after
// a minute without them). `scripts/demo.sh --postgres` runs two instances side by side.
#if PostgreSQL
import Foundation
import PersistanceMacros
import PersistancePostgres

@Table("demo_message")
struct Message: Sendable, Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var author: String
    var text: String
    var sent: Date
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let url = ProcessInfo.processInfo.environment["PERSISTANCE_POSTGRES_URL"] else {
    print("usage: PERSISTANCE_POSTGRES_URL=postgres://… persistance-postgres-demo NAME PEER [COUNT]")
    exit(2)
}
let name = arguments[arguments.startIndex]
let peer = arguments[arguments.startIndex + 1]
let count = arguments.count > 2 ? Int(arguments[arguments.startIndex + 2]) ?? 5 : 5

func say(_ line: String) {
    // Unbuffered, so that the two instances' lines interleave as they happen.
    FileHandle.standardOutput.write(Data("[\(name)] \(line)\n".utf8))
}

let db = try await PostgresDatabase.open(url: url)
let migrator = Migrator(steps: [
    MigrationStep("2", sql: ["CREATE INDEX IF NOT EXISTS demo_message_author ON demo_message (author)"]),
])
let applied = try await migrator.migrate(db, reconciling: [Message.table])
say(applied.isEmpty ? "schema ready (nothing to migrate)" : "migrated through \(applied.joined(separator: ", "))")

// The peer's messages, fetched again after every commit that touched the table, whichever
// instance made it.
let peerMessages = db.observe { tx in
    try await Message.table.query()
        .filter(Message.columns.author == peer)
        .order(Message.columns.id)
        .fetchAll(in: tx)
}.removeDuplicates()

let watcher = Task {
    var seen = 0
    for try await messages in peerMessages {
        for message in messages.dropFirst(seen) {
            say("sees \(peer)'s message \(message.id ?? 0): \"\(message.text)\"")
        }
        seen = messages.count
        if seen >= count { return seen }
    }
    return seen
}

for number in 1...count {
    var message = Message(id: nil, author: name, text: "hello \(number) from \(name)", sent: Date())
    try await db.write { tx in try await Message.table.insert(&message, in: tx) }
    say("wrote message \(message.id ?? 0)")
    try await Task.sleep(for: .milliseconds(150))
}

let timeout = Task {
    try await Task.sleep(for: .seconds(60))
    watcher.cancel()
}
let seen = (try? await watcher.value) ?? 0
timeout.cancel()
await db.close()
guard seen >= count else {
    say("saw only \(seen) of \(peer)'s \(count) messages")
    exit(1)
}
say("done: wrote \(count) messages and saw all \(count) of \(peer)'s through observation")
#else
print("persistance-postgres-demo needs the PostgreSQL trait: swift run --traits SystemSQLite,PostgreSQL persistance-postgres-demo")
#endif
