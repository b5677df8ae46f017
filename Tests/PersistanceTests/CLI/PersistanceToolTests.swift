import Foundation
import Testing

@testable import Persistance

/// The `persistance` tool, run as a process on real files made by the `sqlite3` and
/// `sqlcipher` shells and by the library.
@Suite struct PersistanceToolTests {
    /// A plaintext file made by the `sqlite3` shell, in rollback-journal mode.
    private func shellFile(in directory: TemporaryDirectory, name: String = "shop.db") throws -> String {
        try PersistanceTool.shell("sqlite3", name, """
            CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, price REAL, data BLOB);
            CREATE INDEX item_name ON item(name);
            INSERT INTO item(name, price, data) VALUES ('apple, red', 1.5, x'00ff'), ('日本語', NULL, NULL), ('say "hi"', 2, NULL);
            """, in: directory)
        return name
    }

    private func journalMode(_ path: String) throws -> String? {
        let conn = try Connection(path: path)
        defer { try? conn.close() }
        return try conn.fetchOne(String.self, "PRAGMA journal_mode")
    }

    @Test func infoDescribesAFileWithoutChangingIt() throws {
        let directory = try TemporaryDirectory()
        let file = try shellFile(in: directory)
        let before = try Data(contentsOf: directory.url.appendingPathComponent(file))
        let run = try PersistanceTool.run(["info", file], in: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(run.output.contains("encrypted:       no"))
        #expect(run.output.contains("journal mode:    delete"))
        #expect(run.output.contains("item      3"))
        #expect(run.output.contains("item_name  item   name"))
        #expect(run.output.contains("SQLite \(SQLiteEngine.version)"))
        #expect(try Data(contentsOf: directory.url.appendingPathComponent(file)) == before)
    }

    @Test func queryPrintsAlignedTablesJSONAndCSV() throws {
        let directory = try TemporaryDirectory()
        let file = try shellFile(in: directory)
        let table = try PersistanceTool.run(["query", file, "SELECT id, name, data FROM item ORDER BY id"], in: directory)
        #expect(table.status == 0, "\(table.errorOutput)")
        #expect(table.output.split(separator: "\n").map(String.init) == [
            "id  name        data",
            "--  ----------  -------",
            " 1  apple, red  x'00ff'",
            " 2  日本語      NULL",
            " 3  say \"hi\"    NULL",
            "(3 rows)",
        ])
        let csv = try PersistanceTool.run(["query", file, "SELECT name, price FROM item ORDER BY id", "--csv"], in: directory)
        #expect(csv.output == "name,price\r\n\"apple, red\",1.5\r\n日本語,\r\n\"say \"\"hi\"\"\",2.0\n")
        let json = try PersistanceTool.run(["query", file, "SELECT id, name, data, price FROM item ORDER BY id", "--json"], in: directory)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(objects.count == 3)
        #expect(objects[0]["data"] as? String == Data([0, 255]).base64EncodedString())
        #expect(objects[1]["price"] is NSNull)
        #expect(objects[2]["name"] as? String == "say \"hi\"")
    }

    @Test func queryIsReadOnlyUnlessAskedToWrite() throws {
        let directory = try TemporaryDirectory()
        let file = try shellFile(in: directory)
        let refused = try PersistanceTool.run(["query", file, "DELETE FROM item"], in: directory)
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("add --write"))
        #expect(refused.errorOutput.split(separator: "\n").count == 1)
        let allowed = try PersistanceTool.run(["query", file, "DELETE FROM item WHERE id = 1", "--write"], in: directory)
        #expect(allowed.status == 0, "\(allowed.errorOutput)")
        #expect(try PersistanceTool.shell("sqlite3", file, "SELECT count(*) FROM item", in: directory) == "2\n")
        #expect(try journalMode(directory.path(file)) == "delete")
    }

    @Test func badInputIsOneLineAndANonZeroStatus() throws {
        let directory = try TemporaryDirectory()
        let file = try shellFile(in: directory)
        let cases: [[String]] = [
            ["info", "missing.db"], ["query", file, "SELEC nonsense"], ["query", file, "SELECT 1; SELECT 2"],
            ["query", file, "SELECT 1", "--json", "--csv"], ["nonsense"],
        ]
        for arguments in cases {
            let run = try PersistanceTool.run(arguments, in: directory)
            #expect(run.status != 0, "\(arguments)")
            #expect(run.errorOutput.contains("Error"), "\(arguments): \(run.errorOutput)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("missing.db")))
    }

    @Test func checkExitStatusIsTheVerdict() throws {
        let directory = try TemporaryDirectory()
        let file = try shellFile(in: directory)
        let sound = try PersistanceTool.run(["check", file, "--full"], in: directory)
        #expect(sound.status == 0)
        #expect(sound.output == "ok (full check)\n")

        try PersistanceTool.shell("sqlite3", "big.db", """
            CREATE TABLE t(a TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO t SELECT hex(randomblob(100)) FROM n;
            """, in: directory)
        let handle = try FileHandle(forUpdating: directory.url.appendingPathComponent("big.db"))
        try handle.seek(toOffset: 4096 * 3 + 200)
        handle.write(Data(repeating: 0xA5, count: 3000))
        try handle.close()
        let corrupt = try PersistanceTool.run(["check", "big.db"], in: directory)
        #expect(corrupt.status == 1, "\(corrupt.output) \(corrupt.errorOutput)")
        #expect(!corrupt.output.isEmpty)

        #expect(try PersistanceTool.run(["check", "missing.db"], in: directory).status == 2)
    }

    @Test func backupAndVacuumOnAPlaintextFile() throws {
        let directory = try TemporaryDirectory()
        let file = try shellFile(in: directory)
        try PersistanceTool.shell("sqlite3", file, "INSERT INTO item(name) SELECT hex(randomblob(500)) FROM item, item, item, item", in: directory)
        let backup = try PersistanceTool.run(["backup", file, "copy.db"], in: directory)
        #expect(backup.status == 0, "\(backup.errorOutput)")
        #expect(backup.errorOutput.contains("backup:"))
        #expect(backup.errorOutput.contains("(100%)"))
        #expect(!backup.errorOutput.contains("\r"))
        let count = "SELECT count(*), sum(length(name)) FROM item"
        #expect(try PersistanceTool.shell("sqlite3", "copy.db", count, in: directory)
            == PersistanceTool.shell("sqlite3", file, count, in: directory))

        try PersistanceTool.shell("sqlite3", file, "DELETE FROM item WHERE id > 3", in: directory)
        let vacuum = try PersistanceTool.run(["vacuum", file], in: directory)
        #expect(vacuum.status == 0, "\(vacuum.errorOutput)")
        let pages = try #require(vacuum.output.split(separator: " ").compactMap { Int($0) }.last)
        #expect(pages < 10)
        #expect(try PersistanceTool.shell("sqlite3", file, "SELECT count(*) FROM item", in: directory) == "3\n")
    }

    @Test(.enabled(if: !SQLiteEngine.isSQLCipher)) func encryptionCommandsSayTheBuildHasNoSQLCipher() throws {
        let directory = try TemporaryDirectory()
        let file = try shellFile(in: directory)
        for arguments in [["encrypt", file], ["decrypt", file, "out.db"], ["rekey", file], ["backup", file, "c.db", "--new-key"]] {
            let run = try PersistanceTool.run(arguments, environment: ["PERSISTANCE_KEY": "k", "PERSISTANCE_NEW_KEY": "n"], in: directory)
            #expect(run.status != 0)
            #expect(run.errorOutput.contains("SQLCipher trait"), "\(arguments): \(run.errorOutput)")
        }
        let encrypted = try PersistanceTool.run(["info", "\(file)-not-a-db"], in: directory)
        #expect(encrypted.status != 0)
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher)) func encryptRekeyDecryptRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let file = try shellFile(in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: directory.path(file))
        let key = ["PERSISTANCE_KEY": "first key ' \" 密码"]

        let encrypt = try PersistanceTool.run(["encrypt", file], environment: key, in: directory)
        #expect(encrypt.status == 0, "\(encrypt.errorOutput)")
        let header = try Data(contentsOf: directory.url.appendingPathComponent(file)).prefix(16)
        #expect(header != Data("SQLite format 3\0".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path(file))
        #expect((attributes[.posixPermissions] as? Int) == 0o640)

        let noKey = try PersistanceTool.run(["info", file], in: directory)
        #expect(noKey.status != 0)
        #expect(noKey.errorOutput.contains("PERSISTANCE_KEY"))
        let wrongKey = try PersistanceTool.run(["info", file], environment: ["PERSISTANCE_KEY": "nope"], in: directory)
        #expect(wrongKey.status != 0)
        #expect(wrongKey.errorOutput.contains("wrong key"))
        let info = try PersistanceTool.run(["info", file], environment: key, in: directory)
        #expect(info.output.contains("encrypted:       yes"))
        #expect(info.output.contains("item      3"))

        let rekey = try PersistanceTool.run(["rekey", file], environment: key.merging(["PERSISTANCE_NEW_KEY": "second"]) { $1 }, in: directory)
        #expect(rekey.status == 0, "\(rekey.errorOutput)")
        #expect(try PersistanceTool.run(["info", file], environment: key, in: directory).status != 0)
        let newKey = ["PERSISTANCE_KEY": "second"]
        #expect(try PersistanceTool.run(["check", file], environment: newKey, in: directory).status == 0)

        let decrypt = try PersistanceTool.run(["decrypt", file, "plain.db"], environment: newKey, in: directory)
        #expect(decrypt.status == 0, "\(decrypt.errorOutput)")
        let exported = try FileManager.default.attributesOfItem(atPath: directory.path("plain.db"))
        #expect((exported[.posixPermissions] as? Int) == 0o600)
        #expect(try PersistanceTool.shell("sqlite3", "plain.db", "SELECT name FROM item WHERE id = 2", in: directory) == "日本語\n")
        let again = try PersistanceTool.run(["decrypt", file, "plain.db"], environment: newKey, in: directory)
        #expect(again.status != 0)
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher)) func worksOnFilesMadeByTheSQLCipherShell() throws {
        let directory = try TemporaryDirectory()
        try PersistanceTool.shell("sqlcipher", "shell.db", """
            PRAGMA key = 'shell key';
            CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT);
            INSERT INTO note(body) VALUES ('one'), ('two');
            """, in: directory)
        let key = ["PERSISTANCE_KEY": "shell key"]
        let query = try PersistanceTool.run(["query", "shell.db", "SELECT body FROM note ORDER BY id", "--csv"], environment: key, in: directory)
        #expect(query.status == 0, "\(query.errorOutput)")
        #expect(query.output == "body\r\none\r\ntwo\n")

        let backup = try PersistanceTool.run(["backup", "shell.db", "copy.db"], environment: key, in: directory)
        #expect(backup.status == 0, "\(backup.errorOutput)")
        #expect(try PersistanceTool.shell("sqlcipher", "copy.db", "PRAGMA key = 'shell key'; SELECT count(*) FROM note;", in: directory)
            .hasSuffix("2\n"))
        let rekeyed = try PersistanceTool.run(
            ["backup", "shell.db", "rekeyed.db", "--new-key"], environment: key.merging(["PERSISTANCE_NEW_KEY": "new"]) { $1 },
            in: directory)
        #expect(rekeyed.status == 0, "\(rekeyed.errorOutput)")
        #expect(try PersistanceTool.run(["check", "rekeyed.db"], environment: ["PERSISTANCE_KEY": "new"], in: directory).status == 0)
        #expect(try PersistanceTool.run(["check", "rekeyed.db"], environment: key, in: directory).status == 2)
        #expect(try PersistanceTool.run(["vacuum", "shell.db"], environment: key, in: directory).status == 0)
        #expect(try PersistanceTool.shell("sqlcipher", "shell.db", "PRAGMA key = 'shell key'; SELECT count(*) FROM note;", in: directory)
            .hasSuffix("2\n"))
    }

    @Test func helpOffersNoOptionThatTakesAKey() throws {
        let directory = try TemporaryDirectory()
        for command in ["info", "query", "check", "backup", "encrypt", "decrypt", "rekey", "vacuum"] {
            let help = try PersistanceTool.run([command, "--help"], in: directory)
            #expect(help.status == 0)
            #expect(help.output.contains("--key-env"), "\(command)")
            #expect(!help.output.contains("--key "), "\(command)")
            #expect(!help.output.contains("--password"), "\(command)")
        }
    }
}
