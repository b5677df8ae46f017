import Foundation
import Testing

@testable import Persistance

/// A file database in its own temporary directory, with one collection.
// @unchecked: every property is a constant, and `TemporaryDirectory` only holds a constant URL.
struct DocumentFixture: @unchecked Sendable {
    let directory: TemporaryDirectory
    let db: Database
    let users: DocumentCollection

    init(notificationCenter: NotificationCenter? = nil) async throws {
        directory = try TemporaryDirectory()
        db = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("documents.sqlite")))
        users = try await db.collection("users", notificationCenter: notificationCenter)
    }

    /// The names of `documents`, in order.
    static func names(_ documents: [Document]) -> [String] {
        documents.map { $0["name"]?.stringValue ?? "?" }
    }

    /// The number of rows the collection table holds for `collection`, read straight from SQL.
    func storedCount(_ collection: String = "users") async throws -> Int {
        try await db.read { conn in
            try conn.fetchOne(Int.self, #"SELECT count(*) FROM "persistance_documents" WHERE "collection" = ?"#, [collection]) ?? -1
        }
    }
}
