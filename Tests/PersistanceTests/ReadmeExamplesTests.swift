import Foundation
import Testing

@testable import Persistance

/// The README's examples, so that they are known to compile and do what they say.
@Suite struct ReadmeExamplesTests {
    @Test func readmeFirstExample() throws {
        let directory = try TemporaryDirectory()
        let conn = try Connection(path: directory.path("notes.sqlite"))
        try conn.execute("CREATE TABLE IF NOT EXISTS note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)")

        try conn.transaction {
            try conn.execute("INSERT INTO note(title, body) VALUES (?, ?)", ["groceries", "eggs"])
            try conn.execute("INSERT INTO note(title, body) VALUES (:title, :body)", ["title": "c'est ça", "body": nil])
        }

        var printed: [String] = []
        for row in try conn.fetchAll("SELECT id, title, body FROM note ORDER BY id") {
            let title: String = try row.value(named: "title")
            let body: String? = try row.value(named: "body")
            printed.append("\(title) \(body ?? "-")")
        }
        let count = try conn.fetchOne(Int.self, "SELECT count(*) FROM note")

        var caught = false
        do {
            try conn.execute("INSERT INTO note(title) VALUES (NULL)")
        } catch ResultCode.constraintNotNull {
            caught = true
        }
        #expect(printed == ["groceries eggs", "c'est ça -"])
        #expect(count == 2)
        #expect(caught)
    }
}
