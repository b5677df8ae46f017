import Foundation
import Persistance

/// The documents and observation demo: a collection of users, a predicate query, the
/// write-back cache, and the events and observed values those changes cause.
func runDocumentsDemo(in directory: String) async throws {
    section("Documents and observation")
    let path = URL(fileURLWithPath: directory).appendingPathComponent("documents-demo.sqlite").path
    let db = try await Database.open(configuration: DatabaseConfiguration(path: path))
    let users = try await db.collection("users")
    let events = users.events()
    let observedCount = Task {
        var values: [Int] = []
        for try await count in db.observe({ conn in
            try conn.fetchOne(Int.self, #"SELECT count(*) FROM "persistance_documents""#) ?? 0
        }) {
            values.append(count)
            if count == 1_002 { break }
        }
        return values
    }
    try await users.add(contentsOf: [
        ["name": "Ann", "age": 31, "address": ["city": "Paris"]],
        ["name": "Bob", "age": 17, "address": ["city": "Rome"]],
    ])
    let adults = try await users.query(where: DocumentField("age") >= 18, sort: [DocumentField("name").ascending])
    print("adults: \(adults.compactMap { $0["name"]?.stringValue })")

    let clock = ContinuousClock()
    let start = clock.now
    let batch = users.beginCaching()
    for i in 0..<1_000 {
        try await batch.createOrUpdate(["data": .int(Int64(i))], where: nil)
    }
    try await batch.save()
    try batch.endCaching()
    print("1,000 createOrUpdate through the write-back cache: \(clock.now - start)")

    var announced: [String] = []
    for await event in events {
        switch event {
        case .added(let documents): announced.append("added \(documents.count)")
        case .updated(let documents): announced.append("updated \(documents.count)")
        case .removed(let documents): announced.append("removed \(documents.count)")
        case .removedAll: announced.append("removed all")
        }
        if announced.count == 2 { break }
    }
    print("events: \(announced)")
    print("observed document counts: \(try await observedCount.value)")
    try await db.close()
}
