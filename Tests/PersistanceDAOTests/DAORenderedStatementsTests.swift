import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: renderedStatements(for:) shows everything a call would run")
struct DAORenderedStatementsTests {
    static func module(version: String, upgrades: String = "") -> String {
        """
        <module name="r" initializer="createTable" tableName="items" version="\(version)">
        <update id="createTable">
          <step>create table if not exists ${T} (id integer primary key, k text unique, n integer)</step>
          <step>create index if not exists ${T}_n on ${T} (n)</step>
        </update>
        <insert id="put" arguments="k, n">
          <try>
            insert into ${T} (k, n) values (#{k}, #{n})
            <except>update ${T} set n = #{n} where k = #{k}</except>
          </try>
        </insert>
        \(upgrades)
        </module>
        """
    }

    static func summary(_ statements: [DAORenderedStatement]) -> [String] {
        statements.map { "\($0.purpose): \(squeezed($0.sql))" }
    }

    @Test("before the first call: the initializer, then the method; a try shows both sides")
    func initializerAndTry() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: Self.module(version: "1.0")), database: try await directory.database())
        let before = try await dao.renderedStatements(for: "put", ["k": "a", "n": 1])
        #expect(Self.summary(before) == [
            "initializer: create table if not exists items (id integer primary key, k text unique, n integer)",
            "initializer: create index if not exists items_n on items (n)",
            "method: insert into items (k, n) values (?, ?)",
            "except: update items set n = ? where k = ?",
        ])
        #expect(before.last?.arguments == [.integer(1), .text("a")])
        try await dao.call("put", ["k": "a", "n": 1])
        let after = try await dao.renderedStatements(for: "put", ["k": "a", "n": 2])
        #expect(after.map(\.purpose) == [.method, .except])
    }

    @Test("a table at an older version: the pending upgrade blocks, by the stored version")
    func pendingUpgrades() async throws {
        let directory = try DAOTemporaryDirectory()
        let database = try await directory.database()
        try await DAO(module: try DAOModule(xml: Self.module(version: "1.0")), database: database).call("put", ["k": "a", "n": 1])
        let upgrades = """
            <upgrade toVersion="1.0"><step>select 'never'</step></upgrade>
            <upgrade toVersion="1.1"><step>alter table ${T} add column note text</step></upgrade>
            <upgrade toVersion="2.0"><step>update ${T} set note = 'two'</step></upgrade>
            """
        let dao = DAO(module: try DAOModule(xml: Self.module(version: "2.0", upgrades: upgrades)), database: database)
        let statements = try await dao.renderedStatements(for: "put", ["k": "b", "n": 2])
        #expect(Self.summary(statements) == [
            "upgrade to 1.1: alter table items add column note text",
            "upgrade to 2.0: update items set note = 'two'",
            "method: insert into items (k, n) values (?, ?)",
            "except: update items set n = ? where k = ?",
        ])
        let reset = DAO(
            module: try DAOModule(xml: Self.module(version: "2.0").replacingOccurrences(of: "version=\"2.0\"", with: "version=\"2.0\" resetOnUpgrade=\"true\"")),
            database: database)
        let resetStatements = try await reset.renderedStatements(for: "put", ["k": "b", "n": 2])
        #expect(resetStatements.map(\.purpose) == [.reset, .initializer, .initializer, .method, .except])
        #expect(resetStatements.first?.sql == "DROP TABLE IF EXISTS items")
    }
}
