import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: upgrades run step by step, one block per transaction")
struct DAOUpgradeStepTests {
    static let v1_0 = DAOVersion("1.0")!
    static let v2_0 = DAOVersion("2.0")!
    static let v3_0 = DAOVersion("3.0")!

    static let original = """
        <module name="items" initializer="createTable" tableName="items" version="1.0">
        <update id="createTable">create table if not exists ${T} (id integer primary key, content text)</update>
        <insert id="add" arguments="content">insert into ${T} (content) values (#{content})</insert>
        </module>
        """

    /// Version 3.0: block 2.0 adds a column (it fails if run twice), block 3.0 copies into a
    /// table that does not exist until the test creates it.
    static let upgraded = """
        <module name="items" initializer="createTable" tableName="items" version="3.0">
        <update id="createTable">create table if not exists ${T} (id integer primary key, content text, note text)</update>
        <insert id="add" arguments="content">insert into ${T} (content) values (#{content})</insert>
        <select id="count" result="int">select count(*) from ${T}</select>
        <upgrade toVersion="2.0">
          <step>alter table ${T} add column note text</step>
          <step>update ${T} set note = 'two'</step>
        </upgrade>
        <upgrade toVersion="3.0">
          <step>update ${T} set note = 'three'</step>
          <step>insert into ${T}_archive select * from ${T}</step>
        </upgrade>
        </module>
        """

    static func storedVersion(_ database: Database) async throws -> String? {
        try await database.read { connection in
            try connection.fetchOne(String.self, "SELECT version FROM persistance_dao_table_versions WHERE table_name = 'items'")
        }
    }

    static func notes(_ database: Database) async throws -> [String?] {
        try await database.read { connection in try connection.fetchAll(String?.self, "SELECT note FROM items ORDER BY id") }
    }

    @Test("each block is its own transaction: a failing block leaves the ones before it done and recorded, fails the call with upgradeFailed, and the next call retries from there")
    func failingBlock() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        try await DAO(module: try DAOModule(xml: Self.original), database: database).call("add", ["content": "old"])

        let recorder = EventRecorder()
        let dao = DAO(module: try DAOModule(xml: Self.upgraded), database: database)
        dao.eventHandler = { recorder.record($0) }
        let error = await daoError { try await dao.call("add", ["content": "new"]) }
        #expect(error?.kind == .upgradeFailed)
        #expect(error?.underlying is DatabaseError)
        #expect(error?.location?.line == 9)
        #expect(try await Self.storedVersion(database) == "2.0")
        #expect(try await Self.notes(database) == ["two"])  // block 2.0 stays; the call's insert did not run
        guard case .upgradeFailed(let table, let from, let to, _)? = recorder.events.last else {
            Issue.record("no upgradeFailed event: \(recorder.events)")
            return
        }
        #expect(table == "items" && from == Self.v2_0 && to == Self.v3_0)
        #expect(recorder.events.first == .shouldUpgrade(table: "items", from: Self.v1_0, to: Self.v3_0))

        // The next call retries from 2.0: block 2.0 (which cannot run twice) does not run again.
        let again = await daoError { try await dao.call("add", ["content": "new"]) }
        #expect(again?.kind == .upgradeFailed)
        #expect(try await Self.storedVersion(database) == "2.0")

        try await database.write { connection in
            try connection.execute("CREATE TABLE items_archive (id integer primary key, content text, note text)")
        }
        try await dao.call("add", ["content": "new"])
        #expect(try await Self.storedVersion(database) == "3.0")
        #expect(try await Self.notes(database) == ["three", nil])
        #expect(try await dao.call("count").decode(Int.self) == 2)
    }
}
