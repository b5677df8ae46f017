import Testing

@testable import PersistanceTracing

@Suite struct StatementSummaryTests {
    @Test(arguments: [
        ("SELECT name FROM player WHERE id = ?", "SELECT", "player"),
        ("select * from \"my table\" join team on 1", "SELECT", "my table"),
        ("SELECT (SELECT count(*) FROM team) FROM main.player", "SELECT", "main.player"),
        ("INSERT OR REPLACE INTO [player] VALUES (?)", "INSERT", "player"),
        ("REPLACE INTO `player` VALUES (?)", "REPLACE", "player"),
        ("UPDATE OR IGNORE player SET a = 1", "UPDATE", "player"),
        ("UPDATE player SET a = 1", "UPDATE", "player"),
        ("DELETE FROM player", "DELETE", "player"),
        ("WITH t(x) AS (SELECT 1 FROM other) INSERT INTO player SELECT x FROM t", "INSERT", "player"),
        ("CREATE TABLE IF NOT EXISTS \"persistance_documents\"(a)", "CREATE", "persistance_documents"),
        ("ALTER TABLE player ADD COLUMN b", "ALTER", "player"),
        ("-- a comment\nBEGIN IMMEDIATE", "BEGIN", nil),
        ("SELECT 1", "SELECT", nil),
        ("PRAGMA user_version", "PRAGMA", nil),
    ] as [(String, String, String?)])
    func operationAndTable(sql: String, operation: String, table: String?) {
        let summary = StatementSummary(sql: sql)
        #expect(summary.operation == operation)
        #expect(summary.collection == table)
        #expect(summary.spanName == (table.map { "\(operation) \($0)" } ?? operation))
    }

    @Test(arguments: [
        ("INSERT INTO t VALUES ('it''s', x'00ff', 42, -1.5e-3, ?, :name)", "INSERT INTO t VALUES (?, ?, ?, -?, ?, :name)"),
        ("SELECT \"col 1\", t2.a FROM t2 /* note 'x' */ WHERE b = 'secret'", "SELECT \"col 1\", t2.a FROM t2  WHERE b = ?"),
        ("SELECT a FROM t -- 'x'\n", "SELECT a FROM t"),
    ])
    func literalsAreReplaced(sql: String, text: String) {
        #expect(StatementSummary(sql: sql).queryText == text)
    }

    @Test func emptyTextIsNamedSQL() {
        #expect(StatementSummary(sql: "  ").spanName == "SQL")
    }
}
