import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: versioned tables (upgrade blocks, resetOnUpgrade, upgradeMinVersion, events)")
struct DAOVersioningTests {
    /// The module at `version`, with the upgrade blocks up to it.
    static func module(version: String, extra: String = "", upgrades: [String] = ["1.1", "3.2"]) -> String {
        var blocks = ""
        if upgrades.contains("1.1") {
            blocks += """
                <upgrade toVersion="1.1">
                  <step>alter table ${T} add column note text</step>
                  <step>update ${T} set note = 'migrated'</step>
                </upgrade>
                """
        }
        if upgrades.contains("3.2") {
            blocks += """
                <upgrade toVersion='3.2'>
                  <step resumable="true">alter table ${T} add column1 text</step>
                  <step resumable="true">alter table ${T} add column1 text</step>
                  <step resumable="true">alter table ${T} add column2 text</step>
                </upgrade>
                """
        }
        return """
            <module name="versioned" initializer="createTable" tableName="items" version="\(version)" \(extra)>
            <update id="createTable">create table if not exists ${T} (id integer primary key, content text)</update>
            <insert id="add" arguments="content">insert into ${T} (content) values (#{content})</insert>
            <select id="count" result="int">select count(*) from ${T}</select>
            \(blocks)
            </module>
            """
    }

    /// The columns of `items`, after the DAO's first call has prepared the table.
    static func columns(_ dao: DAO) async throws -> [String] {
        try await dao.call("count")
        return try await dao.database.read { conn in
            try conn.fetchAll("PRAGMA table_info(items)").map { try $0.value(named: "name", as: String.self) }
        }
    }

    func dao(_ database: Database, _ xml: String, recorder: EventRecorder) throws -> DAO {
        let dao = DAO(module: try DAOModule(xml: xml), database: database)
        dao.eventHandler = { recorder.record($0) }
        return dao
    }

    static let v1_0 = DAOVersion("1.0")!
    static let v1_1 = DAOVersion("1.1")!
    static let v3_2 = DAOVersion("3.2")!

    @Test("1.0 → 1.1 → 3.2 runs each block once, in order; a resumable step's failure is skipped")
    func upgradePath() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let recorder = EventRecorder()
        let first = try dao(database, Self.module(version: "1.0", upgrades: []), recorder: recorder)
        try await first.call("add", ["content": "old"])
        #expect(try await Self.columns(first) == ["id", "content"])

        let second = try dao(database, Self.module(version: "1.1", upgrades: ["1.1"]), recorder: recorder)
        #expect(try await Self.columns(second) == ["id", "content", "note"])
        let third = try dao(database, Self.module(version: "3.2"), recorder: recorder)
        #expect(try await Self.columns(third) == ["id", "content", "note", "column1", "column2"])
        let note = try await database.read { conn in try conn.fetchOne(String.self, "SELECT note FROM items") }
        #expect(note == "migrated")
        #expect(recorder.events == [
            .tableCreated(table: "items"),
            .shouldUpgrade(table: "items", from: Self.v1_0, to: Self.v1_1),
            .shouldUpgrade(table: "items", from: Self.v1_1, to: Self.v3_2),
        ])
    }

    @Test("1.0 → 3.2 directly runs both blocks")
    func skipVersions() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let recorder = EventRecorder()
        try await dao(database, Self.module(version: "1.0", upgrades: []), recorder: recorder).call("add", ["content": "x"])
        let latest = try dao(database, Self.module(version: "3.2"), recorder: recorder)
        #expect(try await Self.columns(latest).count == 5)
        #expect(try await latest.call("count").decode(Int.self) == 1)
    }

    @Test("resetOnUpgrade drops and re-creates the table instead of upgrading")
    func resetOnUpgrade() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let recorder = EventRecorder()
        try await dao(database, Self.module(version: "1.0", upgrades: []), recorder: recorder).call("add", ["content": "x"])
        let reset = try dao(database, Self.module(version: "1.1", extra: #"resetOnUpgrade="true""#, upgrades: ["1.1"]), recorder: recorder)
        #expect(try await reset.call("count").decode(Int.self) == 0)
        #expect(try await Self.columns(reset) == ["id", "content"])
        #expect(recorder.events == [
            .tableCreated(table: "items"),
            .shouldUpgrade(table: "items", from: Self.v1_0, to: Self.v1_1),
            .tableDeleted(table: "items"),
            .tableCreated(table: "items"),
        ])
    }

    @Test("upgradeMinVersion resets tables older than it and upgrades the others")
    func upgradeMinVersion() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let recorder = EventRecorder()
        try await dao(database, Self.module(version: "1.0", upgrades: []), recorder: recorder).call("add", ["content": "x"])
        let tooOld = try dao(database, Self.module(version: "3.2", extra: #"upgradeMinVersion="1.1""#), recorder: recorder)
        #expect(try await tooOld.call("count").decode(Int.self) == 0)
        #expect(try await Self.columns(tooOld) == ["id", "content"])

        let otherDirectory = try DAOTemporaryDirectory()
        let other = try await otherDirectory.database()
        try await dao(other, Self.module(version: "1.1", upgrades: ["1.1"]), recorder: recorder).call("add", ["content": "y"])
        let recent = try dao(other, Self.module(version: "3.2", extra: #"upgradeMinVersion="1.1""#), recorder: recorder)
        #expect(try await recent.call("count").decode(Int.self) == 1)
        #expect(try await Self.columns(recent).count == 4)
    }

    @Test("a failing upgrade rolls back, keeps the version, reports upgradeFailed and fails the call")
    func failingUpgrade() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let recorder = EventRecorder()
        try await dao(database, Self.module(version: "1.0", upgrades: []), recorder: recorder).call("add", ["content": "x"])
        let broken = Self.module(version: "1.1", upgrades: []).replacingOccurrences(of: "</module>", with: """
            <upgrade toVersion="1.1"><step>alter table ${T} add column note text</step><step>alter table nowhere add x</step></upgrade>
            </module>
            """)
        let failing = try dao(database, broken, recorder: recorder)
        let error = await daoError { try await failing.call("count") }
        #expect(error?.kind == .upgradeFailed)
        #expect(error?.underlying is DatabaseError)
        let columnCount = try await database.read { conn in try conn.fetchAll("PRAGMA table_info(items)").count }
        #expect(columnCount == 2)
        let version = try await database.read { conn in
            try conn.fetchOne(String.self, "SELECT version FROM persistance_dao_table_versions")
        }
        #expect(version == "1.0")
        guard case .upgradeFailed(let table, let from, let to, _)? = recorder.events.last else {
            Issue.record("no upgradeFailed event: \(recorder.events)")
            return
        }
        #expect(table == "items" && from == Self.v1_0 && to == Self.v1_1)
    }

    @Test("a table newer than the module is an error")
    func downgrade() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        let recorder = EventRecorder()
        try await dao(database, Self.module(version: "1.1", upgrades: ["1.1"]), recorder: recorder).call("count")
        let older = try dao(database, Self.module(version: "1.0", upgrades: []), recorder: recorder)
        let error = await daoError { try await older.call("count") }
        #expect(error?.kind == .versionDowngrade)
    }

    @Test("versions compare numerically")
    func versions() throws {
        #expect(try #require(DAOVersion("1.10")) > #require(DAOVersion("1.9")))
        #expect(DAOVersion("1.1") == DAOVersion("1.1.0"))
        #expect(DAOVersion("1.x") == nil)
        #expect(DAOVersion("") == nil)
    }
}
