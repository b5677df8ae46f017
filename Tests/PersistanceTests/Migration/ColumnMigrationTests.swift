import Foundation
import Testing

@testable import Persistance

/// The column migration helpers, on both code paths of the linked engine: native `ALTER
/// TABLE` where it has it (SQLite 3.40) and the table rebuild (every engine; the only path on
/// SQLite 3.15, the SQLCipher build).
@Suite struct ColumnMigrationTests {
    static let dialects = [AlterTableDialect.current, .rebuilding]

    /// `item(id AUTOINCREMENT, name UNIQUE COLLATE NOCASE, price CHECK, note, shop REFERENCES
    /// shop)` with an index, a trigger, two rows and a deleted third one.
    static func catalog() throws -> Connection {
        let conn = try Connection.inMemory()
        try conn.execute("""
            CREATE TABLE shop(id INTEGER PRIMARY KEY, city TEXT);
            INSERT INTO shop(id, city) VALUES (1, 'Paris');
            CREATE TABLE "item" (
                "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE, -- the name, a comment with a comma, here
                [price] REAL DEFAULT 0 CHECK (price >= 0),
                "note" VARCHAR(20) DEFAULT 'it''s, fine',
                shop INTEGER REFERENCES shop(id) ON DELETE CASCADE
            );
            CREATE INDEX item_price ON item(price DESC, name);
            CREATE TABLE log(entry TEXT, at TEXT);
            CREATE TRIGGER item_logged AFTER INSERT ON item BEGIN INSERT INTO log(entry) VALUES (new.name); END;
            INSERT INTO item(name, price, note, shop) VALUES ('pen', 1.5, '12', 1), ('ink', 3, 'x', 1), ('gone', 0, NULL, NULL);
            DELETE FROM item WHERE name = 'gone';
            """)
        return conn
    }

    static func columns(_ conn: Connection, _ table: String = "item") throws -> [String] {
        try TableColumnInfo.fetch(table: table, in: conn).map(\.name)
    }

    @Test(arguments: dialects)
    func renameKeepsRowsIndexesTriggersAndTheCounter(_ dialect: AlterTableDialect) throws {
        let conn = try Self.catalog()
        try conn.renameColumn("price", to: "cost \"eur\"", inTable: "ITEM", dialect: dialect)
        #expect(try Self.columns(conn) == ["id", "name", "cost \"eur\"", "note", "shop"])
        #expect(try conn.fetchAll(Double.self, "SELECT \"cost \"\"eur\"\"\" FROM item ORDER BY id") == [1.5, 3])
        #expect(try TableIndexInfo.columns(ofIndex: "item_price", in: conn) == ["cost \"eur\"", "name"])
        try conn.execute("INSERT INTO item(name) VALUES ('cap')")
        #expect(try conn.fetchOne(Int64.self, "SELECT id FROM item WHERE name = 'cap'") == 4)
        #expect(try conn.fetchAll(String.self, "SELECT entry FROM log") == ["pen", "ink", "gone", "cap"])
        let negative = #expect(throws: DatabaseError.self) {
            try conn.execute("INSERT INTO item(name, \"cost \"\"eur\"\"\") VALUES ('bad', -1)")
        }
        #expect(negative?.extendedResultCode == .constraintCheck)
        #expect(throws: DatabaseError.self) { try conn.execute("INSERT INTO item(name) VALUES ('PEN')") }
    }

    @Test(arguments: dialects)
    func dropKeepsTheOtherColumns(_ dialect: AlterTableDialect) throws {
        let conn = try Self.catalog()
        try conn.dropColumn("note", fromTable: "item", dialect: dialect)
        #expect(try Self.columns(conn) == ["id", "name", "price", "shop"])
        #expect(try conn.fetchAll(String.self, "SELECT name FROM item ORDER BY id") == ["pen", "ink"])
        #expect(try TableIndexInfo.fetch(table: "item", in: conn).map(\.name).contains("item_price"))
        try conn.execute("DELETE FROM shop")   // the foreign key and its action survived
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM item") == 0)
    }

    @Test(arguments: dialects)
    func changeTypeRewritesEachValue(_ dialect: AlterTableDialect) throws {
        let conn = try Self.catalog()
        try conn.changeColumnType("note", inTable: "item", to: .integer, transform: { value in
            guard case .text(let text) = value else { return value }
            return Int64(text).map(DatabaseValue.integer) ?? .null
        }, dialect: dialect)
        #expect(try TableColumnInfo.fetch(table: "item", in: conn).first { $0.name == "note" }?.type == "INTEGER")
        #expect(try conn.fetchAll("SELECT note FROM item ORDER BY id").map { $0.values[0] } == [.integer(12), .null])
        #expect(try conn.fetchOne(String.self, "SELECT typeof(note) FROM item WHERE id = 1") == "integer")
        try conn.execute("INSERT INTO item(name) VALUES ('cap')")
        #expect(try conn.fetchOne(String.self, "SELECT note FROM item WHERE name = 'cap'") == "it's, fine")
        #expect(try conn.fetchOne(Int64.self, "SELECT id FROM item WHERE name = 'cap'") == 4)
    }

    @Test(arguments: dialects)
    func changeTypeWithoutTransformConvertsByAffinity(_ dialect: AlterTableDialect) throws {
        let conn = try Self.catalog()
        try conn.changeColumnType("note", inTable: "item", to: .numeric, transform: nil, dialect: dialect)
        #expect(try conn.fetchOne(String.self, "SELECT typeof(note) FROM item WHERE id = 1") == "integer")
    }

    // MARK: Bad input

    struct Refusal: CustomTestStringConvertible, Sendable {
        let label: String
        let change: @Sendable (Connection, AlterTableDialect) throws -> Void
        var testDescription: String { label }
    }

    static let refusals: [Refusal] = [
        Refusal(label: "unknown table") { try $0.dropColumn("x", fromTable: "nope", dialect: $1) },
        Refusal(label: "unknown column") { try $0.renameColumn("nope", to: "x", inTable: "item", dialect: $1) },
        Refusal(label: "name taken") { try $0.renameColumn("note", to: "NAME", inTable: "item", dialect: $1) },
        Refusal(label: "empty name") { try $0.renameColumn("note", to: "", inTable: "item", dialect: $1) },
        Refusal(label: "drop primary key") { try $0.dropColumn("id", fromTable: "item", dialect: $1) },
        Refusal(label: "drop unique") { try $0.dropColumn("name", fromTable: "item", dialect: $1) },
        Refusal(label: "drop indexed") { try $0.dropColumn("price", fromTable: "item", dialect: $1) },
        Refusal(label: "drop foreign key") { try $0.dropColumn("shop", fromTable: "item", dialect: $1) },
        Refusal(label: "drop column a trigger uses") { try $0.dropColumn("entry", fromTable: "log", dialect: $1) },
        Refusal(label: "retype primary key") {
            try $0.changeColumnType("id", inTable: "item", to: .text, transform: nil, dialect: $1)
        },
    ]

    @Test(arguments: refusals, dialects)
    func refusedChangesChangeNothing(_ refusal: Refusal, _ dialect: AlterTableDialect) throws {
        let conn = try Self.catalog()
        try conn.execute("CREATE TRIGGER log_watch AFTER INSERT ON log BEGIN SELECT new.entry; END")
        let schema = try conn.fetchAll("SELECT * FROM sqlite_master ORDER BY name")
        expectThrows(.invalidSchemaChange) { try refusal.change(conn, dialect) }
        #expect(try conn.fetchAll("SELECT * FROM sqlite_master ORDER BY name") == schema)
        #expect(!conn.isInTransaction)
    }

    @Test(arguments: dialects)
    func aThrowingTransformRollsBack(_ dialect: AlterTableDialect) throws {
        struct Unconvertible: Error {}
        let conn = try Self.catalog()
        let schema = try conn.fetchAll("SELECT * FROM sqlite_master ORDER BY name")
        let rows = try conn.fetchAll("SELECT * FROM item ORDER BY id")
        let failing: (DatabaseValue) throws -> DatabaseValue = { _ in throw Unconvertible() }
        #expect(throws: Unconvertible.self) {
            try conn.changeColumnType("note", inTable: "item", to: .integer, transform: failing, dialect: dialect)
        }
        #expect(try conn.fetchAll("SELECT * FROM sqlite_master ORDER BY name") == schema)
        #expect(try conn.fetchAll("SELECT * FROM item ORDER BY id") == rows)
    }

    @Test(arguments: dialects)
    func aTransformBreakingAConstraintRollsBack(_ dialect: AlterTableDialect) throws {
        let conn = try Self.catalog()
        let rows = try conn.fetchAll("SELECT * FROM item ORDER BY id")
        let same: (DatabaseValue) throws -> DatabaseValue = { _ in "same" }
        let error = #expect(throws: DatabaseError.self) {
            try conn.changeColumnType("name", inTable: "item", to: .text, transform: same, dialect: dialect)
        }
        #expect(error?.extendedResultCode == .constraintUnique)
        #expect(try conn.fetchAll("SELECT * FROM item ORDER BY id") == rows)
    }

    /// Rebuilding a table that another table references, inside a transaction with foreign keys
    /// enforced, would delete or block the children's rows: it is refused.
    @Test func rebuildingAReferencedTableInsideAnEnforcedTransactionIsRefused() throws {
        let conn = try Self.catalog()
        let error = expectThrows(.invalidSchemaChange) {
            try conn.transaction { try conn.changeColumnType("city", inTable: "shop", to: .blob) }
        }
        #expect(error?.message.contains("table \"item\" references it") == true)
        try conn.changeColumnType("city", inTable: "shop", to: .blob)   // outside: enforcement is suspended
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM item") == 2)
        #expect(try conn.fetchOne(Bool.self, "PRAGMA foreign_keys") == true)
    }

    /// In a migration step (foreign keys suspended by the migrator) a referenced table can be
    /// rebuilt, and the children keep their rows.
    @Test(arguments: dialects)
    func aMigrationStepRebuildsAReferencedTable(_ dialect: AlterTableDialect) throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("shop.sqlite"))
        let setup = try configuration.openWriter()
        try setup.execute("""
            CREATE TABLE shop(id INTEGER PRIMARY KEY, city TEXT, legacy TEXT);
            CREATE TABLE item(id INTEGER PRIMARY KEY, shop INTEGER REFERENCES shop(id) ON DELETE CASCADE);
            INSERT INTO shop VALUES (1, 'Paris', 'x'); INSERT INTO item VALUES (1, 1)
            """)
        try setup.close()
        configuration.migrator = Migrator(initialVersion: "1", steps: [
            MigrationStep("2") { conn in
                try conn.renameColumn("city", to: "town", inTable: "shop", dialect: dialect)
                try conn.dropColumn("legacy", fromTable: "shop", dialect: dialect)
            },
        ])
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        #expect(try Self.columns(conn, "shop") == ["id", "town"])
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM item") == 1)
        #expect(try conn.fetchOne(Bool.self, "PRAGMA foreign_keys") == true)
    }

    /// A failing helper in a migration step: the step rolls back and the version stays.
    @Test(arguments: dialects)
    func aFailingHelperInAStepLeavesTheVersion(_ dialect: AlterTableDialect) throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("shop.sqlite"))
        let setup = try configuration.openWriter()
        try setup.execute("CREATE TABLE shop(id INTEGER PRIMARY KEY, city TEXT); INSERT INTO shop VALUES (1, 'Paris')")
        try Migrator(initialVersion: "1").migrate(setup)   // stamps "1"
        try setup.close()
        configuration.migrator = Migrator(initialVersion: "1", steps: [
            MigrationStep("2") { conn in
                try conn.renameColumn("city", to: "town", inTable: "shop", dialect: dialect)
                try conn.dropColumn("nope", fromTable: "shop", dialect: dialect)
            },
        ])
        let error = expectThrows(.migrationFailed) { try configuration.openWriter() }
        #expect(error?.message.contains("has no column \"nope\"") == true)
        let check = try Connection(path: configuration.path)
        defer { try? check.close() }
        #expect(try Self.columns(check, "shop") == ["id", "city"])
        #expect(try Migrator().storedVersion(in: check) == "1")
    }

    /// A step that leaves a dangling reference fails like a step that throws.
    @Test func aStepBreakingAForeignKeyFails() throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("shop.sqlite"))
        let setup = try configuration.openWriter()
        try setup.execute("""
            CREATE TABLE shop(id INTEGER PRIMARY KEY);
            CREATE TABLE item(id INTEGER PRIMARY KEY, shop INTEGER REFERENCES shop(id));
            INSERT INTO shop VALUES (1); INSERT INTO item VALUES (1, 1)
            """)
        try setup.close()
        configuration.migrator = Migrator(initialVersion: "1", steps: [
            MigrationStep("2") { try $0.execute("DELETE FROM shop") },
        ])
        let error = expectThrows(.migrationFailed) { try configuration.openWriter() }
        #expect(error?.extendedResultCode == .constraintForeignKey)
        let check = try Connection(path: configuration.path)
        defer { try? check.close() }
        #expect(try check.fetchOne(Int.self, "SELECT count(*) FROM shop") == 1)
    }
}
