import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: the proxy API (transactions, deleting tables, vacuum, readers)")
struct DAOProxyTests {
    @Test("several calls in one transaction commit together or not at all")
    func transaction() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: DAOFixtures.demo), database: try await directory.database())
        let id = try await dao.transaction { tx in
            try tx.call("insertItem", ["content": "a"])
            try tx.call("insertItem", ["content": "b"])
            return tx.connection.lastInsertRowID
        }
        #expect(id == 2)
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await dao.transaction { tx in
                try tx.call("insertItem", ["content": "c"])
                throw Abort()
            }
        }
        let failing = await daoError {
            try await dao.transaction { tx in
                try tx.call("insertItem", ["content": "d"])
                _ = try? tx.call("missing")
                try tx.call("insertItem", ["content": "e"])
            }
        }
        #expect(failing == nil)
        let count = try await dao.database.read { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM demoTable") }
        #expect(count == 4)
    }

    @Test("deleteTable drops the table and its version; the next call creates it again")
    func deleteTable() async throws {
        let directory = try DAOTemporaryDirectory()
        let recorder = EventRecorder()
        let dao = DAO(module: try DAOModule(xml: DAOFixtures.demo), database: try await directory.database())
        dao.eventHandler = { recorder.record($0) }
        try await dao.call("insertItem", ["content": "a"])
        try await dao.deleteTable()
        #expect(try await dao.call("getItem", ["index": 1]).decode(String?.self) == nil)
        #expect(recorder.events == [.tableCreated(table: "demoTable"), .tableDeleted(table: "demoTable"), .tableCreated(table: "demoTable")])
    }

    @Test("deleteTables(matching:) drops the matching tables with progress, then vacuums")
    func deleteTablesMatching() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let module = try DAOModule(xml: DAOFixtures.demo)
        for index in 1...4 {
            let dao = DAO(module: module, database: database, tableName: "chat_\(index)")
            try await dao.call("insertItem", ["content": .text(String(repeating: "x", count: 100_000))])
        }
        let keeper = DAO(module: module, database: database, tableName: "other")
        try await keeper.call("insertItem", ["content": "kept"])
        let pageCount = { @Sendable in try await database.read { conn in try conn.fetchOne(Int.self, "PRAGMA page_count") ?? 0 } }
        let pagesBefore = try await pageCount()
        let progress = EventRecorder()
        let dropped = try await keeper.deleteTables(matching: "chat_[0-9]+", vacuum: true) { fraction in
            progress.record(.tableDeleted(table: "\(fraction)"))
        }
        #expect(dropped == ["chat_1", "chat_2", "chat_3", "chat_4"])
        #expect(progress.events == ["0.25", "0.5", "0.75", "1.0"].map { .tableDeleted(table: $0) })
        let tables = try await database.read { conn in
            try conn.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["other", "persistance_dao_table_versions"])
        let pagesAfter = try await pageCount()
        #expect(pagesBefore > 50 && pagesAfter < 10)
        #expect(try await keeper.call("getItem", ["index": 1]).decode(String?.self) == "kept")
        #expect(await daoError { _ = try await keeper.deleteTables(matching: "(") }?.kind == .invalidCall)
        #expect(keeper.maximumReaderCount >= 1)
    }
}
