import Foundation
import Testing

@testable import Persistance

/// `persistance query` without `--write` runs only statements that change nothing, never
/// ATTACH or VACUUM (which open or write other files), and `--json` keeps each value's type.
@Suite struct ToolReadOnlyQueryTests {
    private func makeFile(in directory: TemporaryDirectory) throws -> String {
        try makeDatabaseFile(at: directory.path("a.sqlite"), rows: 3)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.path("a.sqlite"))
        return "a.sqlite"
    }

    @Test func writesWithoutWriteAreRefusedAskingForIt() throws {
        let directory = try TemporaryDirectory()
        let file = try makeFile(in: directory)
        let before = try fileBytes(directory.path(file))
        for sql in ["INSERT INTO t(id, body) VALUES (9, 'x')", "DELETE FROM t", "CREATE TABLE u(x)", "PRAGMA user_version = 7"] {
            let run = try PersistanceTool.run(["query", file, sql], in: directory)
            #expect(run.status != 0, "\(sql) ran")
            #expect(run.errorOutput.contains("add --write"), "\(sql): \(run.errorOutput)")
        }
        #expect(try fileBytes(directory.path(file)) == before)
        let write = try PersistanceTool.run(["query", file, "INSERT INTO t(id, body) VALUES (9, 'x')", "--write"], in: directory)
        #expect(write.status == 0, "\(write.errorOutput)")
        let count = try PersistanceTool.run(["query", file, "SELECT count(*) AS n FROM t", "--csv"], in: directory)
        #expect(count.output == "n\r\n4\n")
    }

    @Test func vacuumIntoAndAttachNeverRun() throws {
        let directory = try TemporaryDirectory()
        let file = try makeFile(in: directory)
        let copy = directory.path("copy.sqlite")
        for flags in [[], ["--write"]] {
            for sql in ["VACUUM INTO '\(copy)'", "  /* c */ vacuum into '\(copy)'", "ATTACH '\(copy)' AS other", " -- x\nattach database '\(copy)' AS o"] {
                let run = try PersistanceTool.run(["query", file, sql] + flags, in: directory)
                #expect(run.status != 0, "\(sql) ran")
                #expect(run.errorOutput.contains("query does not run"), "\(sql): \(run.errorOutput)")
                #expect(!FileManager.default.fileExists(atPath: copy))
            }
        }
    }

    @Test func readsStillRun() throws {
        let directory = try TemporaryDirectory()
        let file = try makeFile(in: directory)
        for sql in ["SELECT count(*) FROM t", "PRAGMA user_version", "WITH x AS (SELECT 1) SELECT * FROM x", "EXPLAIN SELECT 1"] {
            let run = try PersistanceTool.run(["query", file, sql], in: directory)
            #expect(run.status == 0, "\(sql): \(run.errorOutput)")
        }
    }

    @Test func jsonKeepsRealsReal() throws {
        let directory = try TemporaryDirectory()
        let file = try makeFile(in: directory)
        let sql = "SELECT 1.0 AS real, 1 AS integer, 2.5e20 AS big, 'a\"b\\c\n' AS text, NULL AS absent, x'00ff' AS data"
        let json = try PersistanceTool.run(["query", file, sql, "--json"], in: directory)
        #expect(json.status == 0, "\(json.errorOutput)")
        #expect(json.output.contains("\"real\" : 1.0"), "\(json.output)")
        #expect(json.output.contains("\"integer\" : 1,"), "\(json.output)")
        #expect(json.output.contains("\"big\" : 2.5e+20"), "\(json.output)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(objects[0]["text"] as? String == "a\"b\\c\n")
        #expect(objects[0]["absent"] is NSNull)
        #expect(objects[0]["data"] as? String == Data([0, 255]).base64EncodedString())
        let empty = try PersistanceTool.run(["query", file, "SELECT * FROM t WHERE 0", "--json"], in: directory)
        #expect(empty.output == "[]\n")
    }
}
