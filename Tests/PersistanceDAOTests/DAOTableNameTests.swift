import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: ${T} is the table name as written; a table name must be an identifier")
struct DAOTableNameTests {
    /// A module that names an index and a side table after its table.
    static let steps = """
        <module name="steps" initializer="createTable" tableName="steps_t" version="1.0">
        <update id="createTable">
          <step>create table if not exists ${T} (id integer primary key, time integer)</step>
          <step>create index if not exists ${T}_time_idx on ${T} (time)</step>
          <step>create table if not exists ${t}_log (id integer primary key, note text)</step>
        </update>
        <insert id="add" arguments="time">insert into ${T} (time) values (#{time})</insert>
        <insert id="log" arguments="note">insert into ${T}_log (note) values (#{note})</insert>
        <select id="logged" result="[string]">select note from ${T}_log order by id</select>
        </module>
        """

    static func names(in database: Database) async throws -> [String] {
        try await database.read { connection in
            try connection.fetchAll(
                String.self, "SELECT name FROM sqlite_master WHERE name NOT LIKE 'persistance%' AND name NOT LIKE 'sqlite%' ORDER BY name")
        }
    }

    @Test("${T}_log and ${T}_time_idx name a side table and an index: the module creates and uses them")
    func derivedNames() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let dao = DAO(module: try DAOModule(xml: Self.steps), database: database)
        #expect(try await renderedSQL(dao, "log", ["note": "n"]) == ["insert into steps_t_log (note) values (?)"])
        try await dao.call("add", ["time": 5])
        try await dao.call("log", ["note": "first"])
        #expect(try await dao.call("logged").decode([String].self) == ["first"])
        let names = try await Self.names(in: database)
        #expect(names == ["steps_t", "steps_t_log", "steps_t_time_idx"])
    }

    @Test("a per-conversation table name set on the DAO is written as it is")
    func perConversation() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let dao = DAO(module: try DAOModule(xml: Self.steps), database: database, tableName: "chat_42")
        try await dao.call("log", ["note": "hi"])
        let names = try await Self.names(in: database)
        #expect(names == ["chat_42", "chat_42_log", "chat_42_time_idx"])
    }

    @Test("a module tableName that is not an identifier does not load", arguments: ["chat-1", "\"x\"", "chat_1; drop table chat_1", "1chat", "é"])
    func invalidModuleName(name: String) throws {
        let xml = """
            <module name="m" tableName="\(name.replacingOccurrences(of: "\"", with: "&quot;"))">
            <select id="s">select * from ${T}</select>
            </module>
            """
        let error = daoError { _ = try DAOModule(xml: xml) }
        #expect(error?.kind == .invalidTableName)
        #expect(error?.location?.line == 1)
    }

    @Test("a table name set on a DAO that is not an identifier fails every call before any SQL runs",
        arguments: ["chat-1", "\"x\"", "chat_1; drop table chat_1", ""])
    func invalidDAOName(name: String) async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let dao = DAO(module: try DAOModule(xml: Self.steps), database: database)
        dao.tableName = name
        let call = await daoError { try await dao.call("add", ["time": 1]) }
        #expect(call?.kind == .invalidTableName)
        let rendered = await daoError { _ = try await dao.renderedStatements(for: "add", ["time": 1]) }
        #expect(rendered?.kind == .invalidTableName)
        let delete = await daoError { try await dao.deleteTable() }
        #expect(delete?.kind == .invalidTableName)
        let fromInit = DAO(module: try DAOModule(xml: Self.steps), database: database, tableName: name)
        let initError = await daoError { try await fromInit.call("add", ["time": 1]) }
        #expect(initError?.kind == .invalidTableName)
        let names = try await Self.names(in: database)
        #expect(names == [])
    }
}
