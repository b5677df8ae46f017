import Foundation
import Testing

@testable import Persistance

/// A query that names a column the table does not have must fail, not run as if the name
/// were a constant: with a hostile or misspelt name, a delete or update would otherwise
/// reach every row whose compared value happens to equal the name. SQLite before 3.29 (the
/// SQLCipher build) reads a quoted name that matches no column as a string literal, so
/// there the query qualifies column references with the table's name; these tests hold on
/// every engine.
@Suite struct QueryUnknownColumnTests {
    private static let names = ["bogus", "name\" IS NOT NULL OR \"name", "Name ", "id\"; DROP TABLE player; --"]

    /// Runs `body` on the fixture, then checks that the schema and every row are as they were.
    private func withUnchangedFixture(_ body: (Connection) throws -> Void) throws {
        try withQueryFixture { conn throws in
            let schema = try QueryFixture.schema(conn)
            let rows = try QueryFixture.rows.order(Column("id")).fetchAll(conn)
            try body(conn)
            #expect(try QueryFixture.schema(conn) == schema)
            #expect(try QueryFixture.rows.order(Column("id")).fetchAll(conn) == rows)
            #expect(try QueryFixture.rows.fetchCount(conn) == 5)
        }
    }

    @Test(arguments: names)
    func everyReadNamingAnUnknownColumnIsAnError(name: String) throws {
        let unknown = Column(name)
        let rows = QueryFixture.rows
        // Where the name appears in the SQL of every read, `fetchCount` included.
        let counted: [(String, Query<Row>)] = [
            ("filter", rows.filter(unknown == name)),
            ("negated filter", rows.filter(!(unknown != name))),
            ("function argument", rows.filter(SQLExpression.function("lower", unknown) == name)),
            ("group", rows.group(by: unknown)),
            ("having", rows.group(by: Column("team")).having(unknown == name)),
            ("distinct selection", rows.select(unknown).distinct()),
        ]
        // A plain count leaves out the order and the selection: there only the other reads fail.
        let uncounted: [(String, Query<Row>)] = [
            ("order", rows.order(unknown)),
            ("order, NULLs last", rows.order(unknown.asc.nullsLast)),
            ("selection", rows.select(Column("id"), unknown)),
            ("selection in a function", rows.select(SQLExpression.max(unknown).aliased("best"))),
        ]
        try withUnchangedFixture { conn throws in
            for (clause, query) in counted + uncounted {
                expectNoSuchColumn("fetchAll, \(clause)") { try query.fetchAll(conn) }
                expectNoSuchColumn("fetchOne, \(clause)") { try query.fetchOne(conn) }
                expectNoSuchColumn("fetchCursor, \(clause)") { try query.fetchCursor(conn) }
                expectNoSuchColumn("fetchAll(Int.self), \(clause)") { try query.fetchAll(Int?.self, conn) }
                expectNoSuchColumn("fetchExists, \(clause)") { try query.fetchExists(conn) }
            }
            for (clause, query) in counted {
                expectNoSuchColumn("fetchCount, \(clause)") { try query.fetchCount(conn) }
            }
        }
    }

    @Test(arguments: names)
    func everyWriteNamingAnUnknownColumnIsAnErrorAndChangesNothing(name: String) throws {
        let unknown = Column(name)
        let rows = QueryFixture.rows
        let selections: [(String, Query<Row>)] = [
            ("filter", rows.filter(unknown == name)),
            ("filter with a limit", rows.filter(unknown == name).order(Column("id")).limit(3)),
            ("order with a limit", rows.order(unknown).limit(2)),
            ("filter on a real column too", rows.filter(Column("id") > 0 && unknown == name)),
        ]
        try withUnchangedFixture { conn throws in
            for (clause, query) in selections {
                expectNoSuchColumn("deleteAll, \(clause)") { try query.deleteAll(conn) }
                expectNoSuchColumn("updateAll, \(clause)") { try query.updateAll(conn, Column("score").set(to: 0)) }
            }
            expectNoSuchColumn("updateAll, assignment target") { try rows.updateAll(conn, unknown.set(to: name)) }
            expectNoSuchColumn("updateAll, target among others") {
                try rows.updateAll(conn, Column("score").set(to: 0), unknown.set(to: 1))
            }
            expectNoSuchColumn("updateAll, assigned expression") { try rows.updateAll(conn, Column("name").set(to: unknown)) }
            expectNoSuchColumn("updateAll, assigned arithmetic") {
                try rows.updateAll(conn, Column("score").set(to: Column("score") + unknown))
            }
        }
    }

    /// A delete or update ignores the selection, so a filter cannot refer to its aliases
    /// there: the alias is an unknown column, an error, never a constant.
    @Test func aSelectionAliasIsUnknownToDeleteAndUpdate() throws {
        try withUnchangedFixture { conn throws in
            let aliased = QueryFixture.rows.select(Column("id"), Column("team").aliased("side")).filter(Column("side") == "side")
            #expect(try aliased.fetchAll(conn).isEmpty)
            expectNoSuchColumn("deleteAll") { try aliased.deleteAll(conn) }
            expectNoSuchColumn("updateAll") { try aliased.updateAll(conn, Column("score").set(to: 0)) }
        }
    }

    /// Expects `body` to fail with SQLite's "no such column" error, the one the table API
    /// gives for a name that is no column.
    private func expectNoSuchColumn<T>(
        _ operation: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
    ) {
        let error = #expect(throws: DatabaseError.self, "\(operation)", sourceLocation: sourceLocation) { _ = try body() }
        #expect(error?.kind == .sqlite, "\(operation): \(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.resultCode == .error, "\(operation): \(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.message.hasPrefix("no such column") == true, "\(operation): \(String(describing: error))",
                sourceLocation: sourceLocation)
    }
}
