import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: @{x no \"\"} inlines the caller's raw text; more than one statement does not run")
struct DAORawInlineTests {
    static let module = """
        <module name="raw" tableName="items" initializer="createTable">
        <update id="createTable">create table if not exists ${T} (id integer primary key, n integer, note text)</update>
        <insert id="add" arguments="n, note">insert into ${T} (n, note) values (#{n}, #{note})</insert>
        <select id="sorted" arguments="order" result="[int]">select n from ${T} order by @{order no ""}</select>
        <update id="touch" arguments="items" foreach="items.item">update ${T} set note = 'x' where @{item no ""}</update>
        <select id="count" result="int">select count(*) from ${T}</select>
        </module>
        """

    func dao(_ directory: DAOTemporaryDirectory) async throws -> DAO {
        let dao = DAO(module: try DAOModule(xml: Self.module), database: try await directory.database())
        for n in [2, 3, 1] { try await dao.call("add", ["n": .integer(Int64(n)), "note": "a;b"]) }
        return dao
    }

    @Test("an order clause passed as text: n desc")
    func orderClause() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await dao(directory)
        #expect(try await dao.call("sorted", ["order": "n desc"]).decode([Int].self) == [3, 2, 1])
        #expect(try await dao.call("sorted", ["order": "n"]).decode([Int].self) == [1, 2, 3])
        #expect(try await renderedSQL(dao, "sorted", ["order": "note = ';', n desc -- ;"]) == [
            "select n from items order by note = ';', n desc -- ;"
        ])
    }

    @Test("text that makes a second statement fails the call and nothing runs", arguments: [
        "n; drop table items", "n; delete from items;", "n /* c */ ; select 1",
    ])
    func secondStatement(text: String) async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await dao(directory)
        let error = await daoError { _ = try await dao.call("sorted", ["order": .text(text)]) }
        #expect(error?.kind == .multipleStatements)
        #expect(error?.location?.line == 4)
        let rendered = await daoError { _ = try await dao.renderedStatements(for: "sorted", ["order": .text(text)]) }
        #expect(rendered?.kind == .multipleStatements)
        // A foreach method whose second iteration would run two statements leaves nothing written.
        let touch = await daoError { try await dao.call("touch", ["items": ["n = 1", .text(text)]]) }
        #expect(touch?.kind == .multipleStatements)
        let notes = try await dao.database.read { connection in try connection.fetchAll(String.self, "SELECT note FROM items") }
        #expect(notes == ["a;b", "a;b", "a;b"])
        #expect(try await dao.call("count").decode(Int.self) == 3)
    }
}
