import Foundation
import Testing

@testable import Persistance

/// The bodies of the portable table, record, query and schema tests, written against
/// `some AsyncDatabase` so that each runs on every engine.
enum PortableChecks {
    /// Thrown to stop reading rows early.
    struct Enough: Error {}

    nonisolated(nonsending) static func generatedAndExplicitKeys(_ db: some AsyncDatabase) async throws {
        let (first, second, explicit, tag) = try await db.write { tx in
            var first = Gadget.make(1)
            try await Gadget.table.insert(&first, in: tx)
            var batch = [Gadget.make(2), Gadget.make(3, id: 100)]
            try await Gadget.table.insert(contentsOf: &batch, in: tx)
            try await PortableTag.table.insert(PortableTag(name: "red", uses: 2), in: tx)
            return (first, batch[0], batch[1], try await PortableTag.table.find(primaryKey: "red", in: tx))
        }
        let firstID = try #require(first.id)
        #expect(second.id == firstID + 1)
        #expect(explicit.id == 100)
        #expect(tag == PortableTag(name: "red", uses: 2))
        let (found, some, count, missing) = try await db.read { tx in
            (
                try await Gadget.table.find(primaryKey: firstID, in: tx),
                try await Gadget.table.findAll(primaryKeys: [firstID, 100, 999], in: tx),
                try await Gadget.table.count(in: tx),
                try await Gadget.table.find(primaryKey: 999, in: tx)
            )
        }
        #expect(found == first)
        #expect(Set(some.map(\.code)) == ["G1", "G3"])
        #expect(count == 3)
        #expect(missing == nil)
        // A key the engine generates after an explicit one does not collide with it.
        let next = try await db.write { tx in
            var next = Gadget.make(4)
            try await Gadget.table.insert(&next, in: tx)
            return next
        }
        #expect(next.id != nil && next.id != 100 && next.id != firstID)
    }

    nonisolated(nonsending) static func tableRecordRoundTrip(_ db: some AsyncDatabase) async throws {
        let written = (1...6).map { Gadget.make($0) }
        let inserted = try await db.write { tx in
            var records = written
            try await Gadget.table.insert(contentsOf: &records, in: tx)
            return records
        }
        let read = try await db.read { tx in try await Gadget.table.query().order(Gadget.columns.count).fetchAll(in: tx) }
        #expect(read == inserted)
        #expect(read.map(\.note).contains(nil))
    }

    nonisolated(nonsending) static func codableRecordRoundTrip(_ db: some AsyncDatabase) async throws {
        let written = (1...6).map { CodableGadget(Gadget.make($0)) }
        let inserted = try await db.write { tx in
            var records = written
            try await CodableGadget.table.insert(contentsOf: &records, in: tx)
            return records
        }
        let allKeyed = inserted.allSatisfy { $0.id != nil }
        #expect(allKeyed)
        let read = try await db.read { tx in try await CodableGadget.table.findAll(in: tx) }
        let sorted = read.sorted { $0.count < $1.count }
        #expect(sorted == inserted)
    }

    nonisolated(nonsending) static func updateAndDelete(_ db: some AsyncDatabase) async throws {
        let (updated, missingUpdate, deleted, remaining, left) = try await db.write { tx in
            var one = Gadget.make(1)
            var two = Gadget.make(2)
            try await Gadget.table.insert(&one, in: tx)
            try await Gadget.table.insert(&two, in: tx)
            one.note = nil
            one.ratio = 9.5
            let updated = try await Gadget.table.update(one, in: tx)
            let missingUpdate = try await Gadget.table.update(Gadget.make(7, id: 777), in: tx)
            let deleted = try await Gadget.table.delete(two, in: tx)
            return (
                updated, missingUpdate, deleted, try await Gadget.table.find(primaryKey: one.id!, in: tx),
                try await Gadget.table.count(in: tx)
            )
        }
        #expect(updated && !missingUpdate && deleted)
        #expect(remaining?.note == nil && remaining?.ratio == 9.5)
        #expect(left == 1)
        let keyless = try await db.write { tx in
            do {
                try await Gadget.table.update(Gadget.make(8), in: tx)
                return DatabaseError.Kind.misuse
            } catch let error as DatabaseError {
                return error.kind
            }
        }
        #expect(keyless == .missingPrimaryKey)
    }

    nonisolated(nonsending) static func upserts(_ db: some AsyncDatabase) async throws {
        try await db.write { tx in try await upsertCases(tx) }
    }

    nonisolated(nonsending) static func upsertFallback(_ tx: some DatabaseTransaction) async throws {
        try await upsertCases(tx)
    }

    /// Upserts by primary key and by unique key, inserting and updating.
    nonisolated(nonsending) private static func upsertCases(_ tx: some DatabaseTransaction) async throws {
        var first = Gadget.make(1)
        try await Gadget.table.upsert(&first, uniqueKey: "code", in: tx)
        let firstID = try #require(first.id)
        // Same code, no key: updates that row and learns its key.
        var again = Gadget.make(1)
        again.count = 50
        try await Gadget.table.upsert(&again, uniqueKey: "code", in: tx)
        #expect(again.id == firstID)
        // Another code with the first row's key: falls back to the primary key.
        var renamed = Gadget.make(1, id: firstID)
        renamed.code = "G1-renamed"
        try await Gadget.table.upsert(&renamed, uniqueKey: "code", in: tx)
        // By primary key: updates, keeping stored values for nil properties.
        var byKey = Gadget.make(1, id: firstID)
        byKey.code = "G1-renamed"
        byKey.note = nil
        byKey.count = 77
        try await Gadget.table.upsert(byKey, uniqueKey: "id", in: tx)
        // By primary key with a new key: inserts.
        try await Gadget.table.upsert(Gadget.make(5, id: 500), uniqueKey: "id", in: tx)
        let all = try await Gadget.table.query().order(Gadget.columns.id).fetchAll(in: tx)
        #expect(all.map(\.id) == [firstID, 500])
        #expect(all.first?.code == "G1-renamed")
        #expect(all.first?.count == 77)
        #expect(all.first?.note == "note 1")
        let badKey: Void? = try? await Gadget.table.upsert(Gadget.make(9), uniqueKey: "count", in: tx)
        #expect(badKey == nil)
    }

    nonisolated(nonsending) static func nullIntoNonOptional(_ db: some AsyncDatabase) async throws {
        let error = try await db.write { tx -> DatabaseError? in
            try await tx.execute(
                "CREATE TABLE \(try tx.dialect.quotedIdentifier("portable_tag")) (name TEXT PRIMARY KEY, uses INTEGER)", [])
            try await tx.execute("INSERT INTO portable_tag (name, uses) VALUES ('x', NULL)", [])
            do {
                _ = try await PortableTag.table.find(primaryKey: "x", in: tx)
                return nil
            } catch let error as DatabaseError {
                return error
            }
        }
        #expect(error?.kind == .decoding)
        #expect(error?.column == "uses")
    }

    nonisolated(nonsending) static func constraintViolation(_ db: some AsyncDatabase) async throws {
        try await db.write { tx in try await Gadget.table.insert(Gadget.make(1), in: tx) }
        let original = [Gadget.make(2), Gadget.make(1), Gadget.make(3)]
        var records = original
        var failed = false
        do {
            try await db.write { [records] tx in
                var batch = records
                try await Gadget.table.insert(contentsOf: &batch, in: tx)
            }
        } catch let error as DatabaseError {
            failed = error.condition == .uniqueViolation
        }
        #expect(failed)
        // Inside one transaction, the failed batch leaves the transaction usable and its rows out.
        let (count, afterwards) = try await db.write { tx in
            do {
                try await Gadget.table.insert(contentsOf: &records, in: tx)
            } catch {}
            try await Gadget.table.insert(Gadget.make(4), in: tx)
            return (try await Gadget.table.count(in: tx), records)
        }
        #expect(count == 2)
        #expect(afterwards == original)
    }

    nonisolated(nonsending) static func forEachOverManyRows(_ db: some AsyncDatabase) async throws {
        try await db.write { tx in
            try await PortableTag.table.insert(
                contentsOf: (0..<10_000).map { PortableTag(name: "t\($0)", uses: $0) }, in: tx)
        }
        let (count, sum) = try await db.read { tx in
            var count = 0
            var sum = 0
            try await PortableTag.table.forEach(in: tx) { tag in
                count += 1
                sum += tag.uses
            }
            return (count, sum)
        }
        #expect(count == 10_000)
        #expect(sum == (0..<10_000).reduce(0, +))
        let stopped = try await db.read { tx in
            var seen = 0
            do {
                try await PortableTag.table.query().forEach(in: tx) { _ in
                    seen += 1
                    if seen == 10 { throw Enough() }
                }
            } catch is Enough {}
            return seen
        }
        #expect(stopped == 10)
    }

    /// A record reads each date as the date its row's value reads as: dates the library wrote
    /// (to the millisecond, from year 1 to 9999, both sides of 1970), and text with more
    /// digits, which PostgreSQL keeps to the microsecond and SQLite as it is.
    nonisolated(nonsending) static func recordDatesAsRowsHoldThem(_ db: some AsyncDatabase) async throws {
        let seconds: [TimeInterval] = [
            0, -0.001, -1_000_000_000.5, 1_700_000_000.123, 1_000_000_000.999, -62_135_596_800, 253_402_300_799.999,
        ]
        let written = seconds.enumerated().map { number, seconds in
            PortableMoment(
                number: number, at: Date(timeIntervalSince1970: seconds),
                maybe: number.isMultiple(of: 2) ? nil : Date(timeIntervalSince1970: -seconds))
        }
        let precise = ["2026-11-27 01:02:03.4565", "1969-12-31 23:59:59.9995", "2000-02-29 12:00:00.0004"]
        let (records, reordered, rows) = try await db.write { tx in
            try await PortableMoment.table.insert(contentsOf: written, in: tx)
            for (offset, text) in precise.enumerated() {
                try await tx.execute(
                    "INSERT INTO portable_moment (number, at, maybe) VALUES (\(100 + offset), $1, $1)", [.text(text)])
            }
            let sql = "SELECT maybe, number, at FROM portable_moment ORDER BY number"
            return (
                try await PortableMoment.table.query().order(PortableMoment.columns.number).fetchAll(in: tx),
                try await tx.fetchAll(sql, [], reading: PortableMoment.rowReader(columnNames:)),
                try await tx.fetchAll(sql, [])
            )
        }
        // Each written date reads back to the millisecond.
        #expect(records.prefix(written.count).map(\.number) == written.map(\.number))
        for (record, original) in zip(records, written) {
            #expect(abs(record.at.timeIntervalSince(original.at)) < 0.000_5)
            #expect(abs((record.maybe ?? .distantPast).timeIntervalSince(original.maybe ?? .distantPast)) < 0.000_5)
        }
        #expect(reordered == records)
        #expect(records.count == rows.count)
        for (record, row) in zip(records, rows) {
            #expect(try record.at == row.value(named: "at", as: Date.self))
            #expect(try record.maybe == row.value(named: "maybe", as: Date?.self))
            // The rows hold dates as SQLite's date text, on every engine.
            #expect(row["at"]?.storageClass == "TEXT")
        }
    }

    nonisolated(nonsending) static func typedQueries(_ db: some AsyncDatabase) async throws {
        try await db.write { tx in
            try await Gadget.table.insert(contentsOf: (1...20).map { Gadget.make($0) }, in: tx)
        }
        let results = try await db.read { tx in
            let query = Gadget.table.query()
            let page = try await query.filter(Gadget.columns.count > 5).order(Gadget.columns.count.desc)
                .limit(3, offset: 2).fetchAll(in: tx).map(\.count)
            let offsetOnly = try await query.order(Gadget.columns.count).limit(100, offset: 18).fetchAll(in: tx).map(\.count)
            let listed = try await query.filter(Gadget.columns.code.in(["G2", "G4", "G99"])).order(Gadget.columns.code)
                .fetchAll(in: tx).map(\.code)
            let liked = try await query.filter(Gadget.columns.code.like("G1%")).fetchCount(in: tx)
            let one = try await query.filter(Gadget.columns.active == true).order(Gadget.columns.count).fetchOne(in: tx)
            let none = try await query.filter(Gadget.columns.count > 100).fetchOne(in: tx)
            let exists = try await query.filter(Gadget.columns.count == 7).fetchExists(in: tx)
            let notExists = try await query.filter(Gadget.columns.count == 70).fetchExists(in: tx)
            let codes = try await query.select([Column("code")]).filter(Gadget.columns.count < 3)
                .order(Gadget.columns.count).fetchAll(String.self, in: tx)
            return (page, offsetOnly, listed, liked, one?.count, none, exists, notExists, codes)
        }
        #expect(results.0 == [18, 17, 16])
        #expect(results.1 == [19, 20])
        #expect(results.2 == ["G2", "G4"])
        #expect(results.3 == 11)
        #expect(results.4 == 2)
        #expect(results.5 == nil)
        #expect(results.6 && !results.7)
        #expect(results.8 == ["G1", "G2"])
        let (updated, deleted, left) = try await db.write { tx in
            let updated = try await Gadget.table.query().filter(Gadget.columns.count <= 5)
                .updateAll(in: tx, Gadget.columns.note.set(to: "low"))
            let deleted = try await Gadget.table.query().filter(Gadget.columns.count > 15).deleteAll(in: tx)
            return (updated, deleted, try await Gadget.table.query().filter(Gadget.columns.note == "low").fetchCount(in: tx))
        }
        #expect(updated == 5)
        #expect(deleted == 5)
        #expect(left == 5)
    }

    nonisolated(nonsending) static func schemaGainsColumnAndIndex(_ db: some AsyncDatabase) async throws {
        let before = Table<Row>("portable_evolving", columns: [
            .property("id", of: Int64?.self, primaryKey: .autoincrement), .property("name", of: String.self),
        ])
        let after = Table<Row>("portable_evolving", columns: [
            .property("id", of: Int64?.self, primaryKey: .autoincrement), .property("name", of: String.self),
            .property("rank", of: Int.self, default: 3), .property("nickname", of: String?.self),
        ], indexes: [.index("portable_evolving_rank", on: ["rank"])])
        try await db.write { tx in
            try await before.insert(["name": .text("Ann")], in: tx)
        }
        let catalog = try await db.write { tx in
            try await after.reconcile(in: tx)
            try await after.reconcile(in: tx)  // a second time changes nothing
            try await after.insert(["name": .text("Bob"), "rank": .integer(1), "nickname": .text("B")], in: tx)
            return try await tx.tableCatalog("portable_evolving")
        }
        let columns = catalog?.columns.map { $0.lowercased() }
        #expect(columns == ["id", "name", "rank", "nickname"])
        #expect(catalog?.indexes.contains("portable_evolving_rank") == true)
        let rows = try await db.read { tx in try await after.query().order(Column("name")).fetchAll(in: tx) }
        let ranks = rows.map { $0["rank"] }
        #expect(ranks == [.integer(3), .integer(1)])
        let strict = Table<Row>("portable_evolving", columns: [
            .property("id", of: Int64?.self, primaryKey: .autoincrement), .property("name", of: String.self),
            .property("required", of: String.self),
        ])
        let mismatch = try await db.write { tx -> DatabaseError.Kind? in
            do {
                try await strict.reconcile(in: tx)
                return nil
            } catch let error as DatabaseError {
                return error.kind
            }
        }
        #expect(mismatch == .schemaMismatch)
    }

    nonisolated(nonsending) static func concurrentMigrations(_ db: some AsyncDatabase) async throws {
        let migrator = Migrator(initialVersion: "1", steps: [
            MigrationStep("2", sql: ["CREATE TABLE portable_migrated (id INTEGER PRIMARY KEY, note TEXT)"]),
            MigrationStep("3", sql: ["INSERT INTO portable_migrated (id, note) VALUES (1, 'once')"]),
        ])
        async let first = migrator.migrate(db)
        async let second = migrator.migrate(db)
        let applied = try await [first, second]
        let versions = applied.flatMap { $0 }.sorted()
        #expect(versions == ["2", "3"])
        let (count, version) = try await db.read { tx in
            (
                try await tx.fetchAll("SELECT count(*) FROM portable_migrated", [])[0].value(at: 0, as: Int.self),
                try await migrator.storedVersion(in: tx)
            )
        }
        #expect(count == 1)
        #expect(version == "3")
        let connectionStep = Migrator(steps: [MigrationStep("2") { _ in }])
        let refused = try await db.write { tx -> DatabaseError.Kind? in
            do {
                try await tx.execute("DROP TABLE persistance_schema_version", [])
                try await connectionStep.migrate(in: tx)
                return nil
            } catch let error as DatabaseError {
                return error.kind
            }
        }
        #expect(refused == .migrationFailed)
    }
}
