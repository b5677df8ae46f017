import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: dynamic SQL (where, choose, set, foreach, trim, try/except, references)")
struct DAODynamicSQLTests {
    func booksDAO(_ directory: DAOTemporaryDirectory) async throws -> DAO {
        let database = try await directory.database()
        try await database.write { conn in
            try conn.execute("""
                CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, state TEXT, author_name TEXT, featured INTEGER,
                    username TEXT, password TEXT, email TEXT, bio TEXT);
                INSERT INTO book (title, state, author_name, featured) VALUES ('Swift', 'ACTIVE', 'Ann', 0);
                INSERT INTO book (title, state, author_name, featured) VALUES ('SQLite', 'ACTIVE', 'Bob', 1);
                INSERT INTO book (title, state, author_name, featured) VALUES ('Old', 'GONE', 'Ann', 1);
                """)
        }
        return DAO(module: try DAOModule(xml: DAOFixtures.books), database: database)
    }

    @Test("where drops the leading AND/OR, and disappears when nothing holds")
    func whereClause() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await booksDAO(directory)
        #expect(try await renderedSQL(dao, "search", ["author": ["name": "A%"]]) == [
            #"select id, title from book WHERE author_name like ?"#
        ])
        #expect(try await renderedSQL(dao, "search", ["state": "ACTIVE", "title": "S%"]) == [
            #"select id, title from book WHERE state = ? AND title like ?"#
        ])
        #expect(try await renderedSQL(dao, "search") == [#"select id, title from book"#])
        let rows = try await dao.call("search", ["author": ["name": "Ann"]]).decode([Row].self)
        #expect(rows.map { $0["title"] } == [.text("Swift"), .text("Old")])
        #expect(try await dao.call("search").decode([Row].self).count == 3)
    }

    @Test("choose takes the first branch that holds, else otherwise")
    func choose() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await booksDAO(directory)
        #expect(try await renderedSQL(dao, "featured", ["title": "S%", "author": ["name": "Ann"]]) == [
            #"select id, title from book where state = 'ACTIVE' AND title like ?"#
        ])
        #expect(try await renderedSQL(dao, "featured", ["author": ["name": "Ann"]]) == [
            #"select id, title from book where state = 'ACTIVE' AND author_name like ?"#
        ])
        #expect(try await renderedSQL(dao, "featured", ["author": [:]]) == [
            #"select id, title from book where state = 'ACTIVE' AND featured = 1"#
        ])
        let titles = try await dao.call("featured").decode([Row].self).map { $0["title"] }
        #expect(titles == [.text("SQLite")])
    }

    @Test("onVoid=quit skips the statement; the seed's complex expression")
    func quit() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await booksDAO(directory)
        #expect(try await renderedSQL(dao, "complex", ["title": "x", "year": 2009, "authors": ["a"]]) == [])
        #expect(try await dao.call("complex", ["title": "x", "year": 2009]).decode([Row].self).isEmpty)
        #expect(try await renderedSQL(dao, "complex", ["authors": ["a", "b"]]) == [#"select id from book WHERE id > 0"#])
        #expect(try await dao.call("complex", ["title": "x", "year": 2011]).decode([Row].self).count == 3)
    }

    @Test("set drops the trailing comma; if false= inverts")
    func setClause() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await booksDAO(directory)
        let arguments: [String: DAOValue] = ["id": 1, "username": "ann", "email": "ann@example.com"]
        #expect(try await renderedSQL(dao, "updateAuthor", arguments) == [
            #"update book SET password=?, email=? where id = ?"#
        ])
        #expect(try await dao.call("updateAuthor", arguments).decode(Int.self) == 1)
        let row = try await dao.database.read { conn in try conn.fetchOne("SELECT password, email FROM book WHERE id = 1") }
        #expect(row?["password"] == .null)
        #expect(row?["email"] == .text("ann@example.com"))
    }

    @Test("foreach element with open, separator, close and reverse; @{x no \"\"} inlines the caller's text")
    func foreachElement() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await booksDAO(directory)
        #expect(try await renderedSQL(dao, "proc", ["list": ["1", "2", "3"], "prefix": "abc"]) == ["select (abc3,abc2,abc1)"])
        #expect(try await renderedSQL(dao, "proc", ["list": [], "prefix": "abc"]) == ["select"])
        #expect(try await renderedSQL(dao, "proc", ["list": ["1 or 1=1"], "prefix": "abc"]) == ["select (abc1 or 1=1)"])
        let notAList = await daoError { _ = try await dao.renderedStatements(for: "proc", ["list": "1,2", "prefix": "abc"]) }
        #expect(notAList?.kind == .notACollection)
        #expect(notAList?.location?.line == 48)
    }

    @Test("try/except: the template expands column lists; a conflicting insert becomes an update, keeping the rowid")
    func tryExcept() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: DAOFixtures.templates), database: try await directory.database())
        let first: DAOValue = ["tplId": "a", "tplVersion": 1, "time": 100, "data": "one", "tag": "x"]
        #expect(try await renderedSQL(dao, "insertTemplates", ["templates": [first]]) == [
            #"insert into templates (tplId, tplVersion, time, data, tag) values(?, ?, ?, ?, ?)"#
        ])
        try await dao.call("insertTemplates", ["templates": [first, ["tplId": "b", "tplVersion": 1, "data": "two"]]])
        let changed: DAOValue = ["tplId": "a", "tplVersion": 1, "time": 200, "data": "uno", "tag": "y"]
        try await dao.call("insertTemplates", ["templates": [changed]])
        let rows = try await dao.call("all").decode([Row].self)
        #expect(rows.map { $0["rowid"] } == [.integer(1), .integer(2)])
        #expect(rows.map { $0["data"] } == [.text("uno"), .text("two")])
        #expect(rows.map { $0["tag"] } == [.text("y"), .null])
    }

    @Test("@{} quotes strings so they cannot inject; #{x or \"\"} binds the empty string for nil")
    func inlining() async throws {
        let module = try DAOModule(xml: """
            <module name="refs" tableName="t">
            <select id="quoted" arguments="name">select * from ${T} where name = @{name}</select>
            <select id="alreadyQuoted" arguments="name">select * from ${T} where name like '@{name}%'</select>
            <select id="orEmpty" arguments="name">select @{name or ""}, #{name or ""}, @{name}</select>
            <select id="blob" arguments="data">select @{data}, @{data.count}</select>
            <select id="table" arguments="x">select * from ${t} where ${c} = 1</select>
            <const c="column_c"/>
            </module>
            """)
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: module, database: try await directory.database())
        #expect(try await renderedSQL(dao, "quoted", ["name": "x' OR '1'='1"]) == [#"select * from t where name = 'x'' OR ''1''=''1'"#])
        #expect(try await renderedSQL(dao, "alreadyQuoted", ["name": "O'Brien"]) == [#"select * from t where name like 'O''Brien%'"#])
        #expect(try await renderedSQL(dao, "orEmpty") == ["select '', ?, NULL"])
        #expect(try await methodStatements(dao, "orEmpty").first?.arguments == [.text("")])
        #expect(try await renderedSQL(dao, "blob", ["data": .blob(Data([0xCA, 0xFE]))]) == ["select X'CAFE', 2"])
        #expect(try await renderedSQL(dao, "table") == [#"select * from t where column_c = 1"#])
        let rows = try await dao.call("orEmpty", ["name": "it's"]).decode([Row].self)
        #expect(rows.first?.values == [.text("it's"), .text("it's"), .text("it's")])
        dao.tableName = nil
        let error = await daoError { _ = try await dao.renderedStatements(for: "table") }
        #expect(error?.kind == .missingTableName)
        #expect(error?.location?.line == 6)
    }

    @Test("global arguments are visible to every method, after its own arguments")
    func globals() async throws {
        let module = try DAOModule(xml: """
            <module name="g"><select id="who" arguments="name" result="string">select @{name} || '/' || #{user}</select></module>
            """)
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: module, database: try await directory.database())
        dao.globalArguments = ["user": "ann", "name": "global"]
        #expect(try await dao.call("who", ["name": "local"]).decode(String.self) == "local/ann")
        let undefined = await daoError { dao.globalArguments = [:]; _ = try await dao.call("who") }
        #expect(undefined?.kind == .undefinedReference)
    }
}
