import Testing

@testable import Persistance

/// Reading and editing stored `CREATE TABLE` text, which table rebuilds rely on.
@Suite struct TableDefinitionSQLTests {
    static let sql = """
        CREATE TABLE main."t" ("a b" INT, [c] VARCHAR (10, 2) NOT NULL DEFAULT 'x, y', d, `e"` TEXT CHECK (d > "a b"),
        UNIQUE (d, [c]), FOREIGN KEY (d) REFERENCES other(d) ON DELETE CASCADE) WITHOUT ROWID
        """

    @Test func findsColumnsTypesAndConstraints() throws {
        let definition = try TableDefinitionSQL(table: "t", sql: Self.sql)
        let names = definition.columnDefinitions.map { definition.tokens[$0.name].name }
        #expect(names == ["a b", "c", "d", "e\""])
        let types = definition.columnDefinitions.map { column in
            column.type.map { String(definition.tokens[$0].text) }.joined(separator: " ")
        }
        #expect(types == ["INT", "VARCHAR ( 10 , 2 )", "", "TEXT"])
    }

    @Test func renamesTheColumnWhereverTheTableNamesItButNotInAnotherTable() throws {
        let definition = try TableDefinitionSQL(table: "t", sql: Self.sql)
        let renamed = definition.renamingColumn("D", to: "new\"d", tableAs: "\"tmp\"")
        #expect(renamed == """
            CREATE TABLE "tmp" ("a b" INT, [c] VARCHAR (10, 2) NOT NULL DEFAULT 'x, y', "new""d", `e"` TEXT CHECK ("new""d" > "a b"),
            UNIQUE ("new""d", [c]), FOREIGN KEY ("new""d") REFERENCES other(d) ON DELETE CASCADE) WITHOUT ROWID
            """)
    }

    @Test func dropsAColumnOnlyWhenNothingElseUsesIt() throws {
        let definition = try TableDefinitionSQL(table: "t", sql: "CREATE TABLE t(a, b DEFAULT (1 + 2), c)")
        #expect(try definition.droppingColumn("b", tableAs: "x") == "CREATE TABLE x(a, c)")
        #expect(try definition.droppingColumn("c", tableAs: "x") == "CREATE TABLE x(a, b DEFAULT (1 + 2))")
        let constrained = try TableDefinitionSQL(table: "t", sql: Self.sql)
        expectThrows(.invalidSchemaChange) { try constrained.droppingColumn("d", tableAs: "x") }
        let single = try TableDefinitionSQL(table: "t", sql: "CREATE TABLE t(a)")
        expectThrows(.invalidSchemaChange) { try single.droppingColumn("a", tableAs: "x") }
    }

    @Test func retypesAColumnWithOrWithoutAType() throws {
        let definition = try TableDefinitionSQL(table: "t", sql: Self.sql)
        #expect(try definition.retypingColumn("c", to: "BLOB", tableAs: "x").hasPrefix(
            "CREATE TABLE x (\"a b\" INT, [c] BLOB NOT NULL"))
        #expect(try definition.retypingColumn("d", to: "REAL", tableAs: "x").contains("'x, y', d REAL, `e\"`"))
    }

    @Test func indexSQLRenamesOnlyIndexedColumns() {
        let sql = "CREATE INDEX \"a\" ON a (a COLLATE a, lower(a)) WHERE a > 0"
        #expect(TableDefinitionSQL.renamingColumn("a", to: "b", inIndexSQL: sql)
            == "CREATE INDEX \"a\" ON a (\"b\" COLLATE a, lower(\"b\")) WHERE \"b\" > 0")
    }

    @Test func unreadableDefinitionsAreRefused() {
        expectThrows(.invalidSchemaChange) { try TableDefinitionSQL(table: "t", sql: "CREATE TABLE t AS SELECT 1") }
        expectThrows(.invalidSchemaChange) { try TableDefinitionSQL(table: "t", sql: "CREATE TABLE t(a") }
    }
}
