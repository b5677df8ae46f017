import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: statements whose SQL depends only on the table name are rendered once per table")
struct DAOStaticStatementTests {
    static let module = """
        <module name="c" initializer="create" tableName="chat_1">
          <update id="create">create table if not exists ${T} (id integer primary key, body text)</update>
          <insert id="add" arguments="body">insert into ${T} (body) values (#{body or ""})</insert>
          <select id="count" result="int">select count(*) from ${t}</select>
          <select id="bodies" arguments="first" result="[string]">select body from ${T} where id >= #{first} order by id</select>
        </module>
        """

    @Test("the SQL follows the DAO's table name, also after the first calls")
    func tableNameChanges() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: Self.module), database: try await directory.database())
        try await dao.call("add", ["body": "a"])
        dao.tableName = "chat_2"
        #expect(try await renderedSQL(dao, "count") == [#"select count(*) from chat_2"#])
        try await dao.call("add", ["body": "b"])
        try await dao.call("add", ["body": nil])
        #expect(try await dao.call("count").decode(Int.self) == 2)
        #expect(try await dao.call("bodies", ["first": 1]).decode([String].self) == ["b", ""])
        dao.tableName = "chat_1"
        #expect(try await dao.call("bodies", ["first": 1]).decode([String].self) == ["a"])
        #expect(try await methodStatements(dao, "bodies", ["first": 7]).first?.arguments == [.integer(7)])
    }

    /// SQLite keeps a copy of a bound text or blob in the cached statement: the call clears
    /// it. Numbers hold nothing and stay bound until the next call binds anew.
    @Test("a text argument does not stay in the cached statement after the call; a number does")
    func textBindingsAreCleared() async throws {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        let module = try DAOModule(xml: """
            <module name="echo">
              <select id="text" arguments="value" result="string">select #{value}</select>
              <select id="number" arguments="value" result="long long">select #{value}</select>
            </module>
            """)
        let dao = DAO(module: module, database: db)
        let leftBound: @Sendable (Connection) throws -> DatabaseValue = { conn in
            let statement = try conn.cachedStatement("select ?")
            defer { statement.reset() }
            _ = try statement.step()
            return statement.column(at: 0)
        }
        #expect(try await dao.call("text", ["value": "secret"]).decode(String?.self) == "secret")
        #expect(try await db.read(leftBound) == .null)
        #expect(try await dao.call("number", ["value": 42]).decode(Int64?.self) == 42)
        #expect(try await db.read(leftBound) == .integer(42))
        try await db.close()
    }

    @Test("bad arguments of a static statement are typed errors, and nothing runs")
    func badArguments() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: Self.module), database: try await directory.database())
        let list = await daoError { try await dao.call("add", ["body": ["a", "b"]]) }
        #expect(list?.kind == .invalidCall)
        let unknown = await daoError { try await dao.call("add", ["body": "a", "other": 1]) }
        #expect(unknown?.kind == .invalidCall)
        #expect(try await dao.call("count").decode(Int.self) == 0)
        dao.tableName = nil
        let noTable = await daoError { try await dao.call("count") }
        #expect(noTable?.kind == .missingTableName)
    }
}
