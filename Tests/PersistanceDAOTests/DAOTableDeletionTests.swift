import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: deleting tables is seen by every DAO on the database")
struct DAOTableDeletionTests {
    static let module = """
        <module name="chat" initializer="createTable" version="1.0">
        <update id="createTable">create table if not exists ${T} (id integer primary key, body text)</update>
        <insert id="add" arguments="body">insert into ${T} (body) values (#{body})</insert>
        <select id="count" result="int">select count(*) from ${T}</select>
        </module>
        """

    static func tables(_ database: Database) async throws -> [String] {
        try await database.read { connection in
            try connection.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
    }

    @Test("after one DAO's deleteTable, another DAO on the same table creates it again on its next call")
    func deleteTable() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let module = try DAOModule(xml: Self.module)
        let first = DAO(module: module, database: database, tableName: "chat_1")
        let second = DAO(module: module, database: database, tableName: "chat_1")
        try await first.call("add", ["body": "a"])
        try await second.call("add", ["body": "b"])
        try await first.deleteTable()
        try await second.call("add", ["body": "c"])
        #expect(try await second.call("count").decode(Int.self) == 1)
        #expect(try await first.call("count").decode(Int.self) == 1)
    }

    @Test("deleteTables(matching:) searches the pattern in the name; sqlite_ and the library's tables stay")
    func deleteMatching() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let module = try DAOModule(xml: Self.module)
        let chat = DAO(module: module, database: database, tableName: "chat_1")
        let other = DAO(module: module, database: database, tableName: "old_chat_2")
        let keep = DAO(module: module, database: database, tableName: "notes")
        try await chat.call("add", ["body": "a"])
        try await other.call("add", ["body": "b"])
        try await keep.call("add", ["body": "c"])
        try await database.write { connection in
            try connection.execute("CREATE TABLE auto (id integer primary key autoincrement)")
            try connection.execute("INSERT INTO auto DEFAULT VALUES")
            try connection.execute("CREATE TABLE persistance_chat_cache (x)")
        }
        let progress = EventRecorder()
        let dropped = try await keep.deleteTables(matching: "chat", progress: { _ in progress.record(.tableDeleted(table: "")) })
        #expect(dropped == ["chat_1", "old_chat_2"])
        #expect(progress.events.count == 2)
        #expect(try await Self.tables(database) == ["auto", "notes", "persistance_chat_cache", "persistance_dao_table_versions", "sqlite_sequence"])
        #expect(try await chat.call("count").decode(Int.self) == 0)
        #expect(try await other.call("count").decode(Int.self) == 0)
        #expect(try await keep.call("count").decode(Int.self) == 1)
        #expect(try await keep.deleteTables(matching: "sqlite|persistance|^a") == ["auto"])
    }
}
