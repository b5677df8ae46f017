import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: the seed's Demo module")
struct DAODemoModuleTests {
    @Test("insertItem, lastInsertRowId, getItem round trip, with the SQL rendered")
    func roundTrip() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: DAOFixtures.demo), database: try await directory.database())
        #expect(try await renderedSQL(dao, "insertItem", ["content": "something"]) == [
            #"insert into demoTable (content) values(?)"#
        ])
        #expect(try await methodStatements(dao, "insertItem", ["content": "something"]).first?.arguments == ["something"])
        let inserted = try await dao.call("insertItem", ["content": "something"])
        #expect(try inserted.decode(Int.self) == 1)
        let lastIndex = try await dao.lastInsertRowID()
        let content = try await dao.call("getItem", ["index": .integer(lastIndex)]).decode(String?.self)
        #expect(content == "something")
        #expect(try await dao.call("getItem", ["index": 999]).decode(String?.self) == nil)
        #expect(dao.methodNames == ["createTable", "insertItem", "getItem"])
        #expect(dao.databasePath == directory.path("dao.sqlite"))
    }

    @Test("the initializer runs once and the table version is stored under the table name")
    func initializerAndVersion() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let recorder = EventRecorder()
        let dao = DAO(module: try DAOModule(xml: DAOFixtures.demo), database: database)
        dao.eventHandler = { recorder.record($0) }
        try await dao.call("insertItem", ["content": "a"])
        try await dao.call("insertItem", ["content": "b"])
        #expect(recorder.events == [.tableCreated(table: "demoTable")])
        let version = try await database.read { conn in
            try conn.fetchOne(String.self, "SELECT version FROM persistance_dao_table_versions WHERE table_name = 'demoTable'")
        }
        #expect(version == "1.0")
    }

    @Test("one module serves several tables: setting tableName creates the next table on first use")
    func tablePerInstance() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let module = try DAOModule(xml: DAOFixtures.demo)
        let first = DAO(module: module, database: database, tableName: "chat_1")
        let second = DAO(module: module, database: database, tableName: "chat_2")
        try await first.call("insertItem", ["content": "to one"])
        try await second.call("insertItem", ["content": "to two"])
        try await second.call("insertItem", ["content": "to two again"])
        #expect(try await first.call("getItem", ["index": 1]).decode(String?.self) == "to one")
        #expect(try await second.call("getItem", ["index": 2]).decode(String?.self) == "to two again")
        first.tableName = "chat_3"
        #expect(try await first.call("getItem", ["index": 1]).decode(String?.self) == nil)
    }

    @Test("a module loads from a file path and a URL, and errors name the file")
    func loadsFromFile() throws {
        let directory = try DAOTemporaryDirectory()
        let path = directory.path("demo_config.xml")
        try DAOFixtures.demo.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try DAOModule(path: path).methodNames.count == 3)
        #expect(try DAOModule(contentsOf: URL(fileURLWithPath: path)).name == "Demo")
        let broken = directory.path("broken.xml")
        try "<module name=\"x\">\n<select id=\"a\" bogus=\"1\">select 1</select>\n</module>".write(
            toFile: broken, atomically: true, encoding: .utf8)
        let error = daoError { _ = try DAOModule(path: broken) }
        #expect(error?.kind == .invalidModule)
        #expect(error?.location?.file == broken)
        #expect(error?.location?.line == 2)
    }
}
