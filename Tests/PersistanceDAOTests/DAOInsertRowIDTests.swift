import Foundation
import Persistance
import PersistanceDAO
import Testing

/// The seed's Demo protocol, with the insert returning its own row id.
@DAOInterface
protocol RowIDDemo: DAOBacked {
    func insertItem(content: String) async throws -> Int64
    func maybeInsert(content: String?) async throws -> Int64?
    func getItem(index: Int64) async throws -> String?
}

@Suite("DAO: every insert path returns its own row id, read inside the same write")
struct DAOInsertRowIDTests {
    static let module = """
        <module name="Demo" initializer="createTable" tableName="demoTable" version="1.0">
        <update id="createTable">create table if not exists ${T} (id integer primary key, content text unique)</update>
        <insert id="insertItem" arguments="content">insert into ${T} (content) values (#{content})</insert>
        <insert id="maybeInsert" arguments="content"><if true="content != nil">insert into ${T} (content) values (#{content})</if></insert>
        <insert id="insertAll" arguments="contents" foreach="contents.content">insert into ${T} (content) values (#{content})</insert>
        <insert id="upsert" arguments="content, newContent">
          <try>
            insert into ${T} (content) values (#{content})
            <except>update ${T} set content = #{newContent} where content = #{content}</except>
          </try>
        </insert>
        <select id="getItem" arguments="index" result="string">select content from ${T} where id = #{index}</select>
        </module>
        """

    @Test("concurrent inserts through a shared DAO each get their own row's id")
    func concurrent() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: Self.module), database: try await directory.database())
        let demo = RowIDDemoDAO(dao: dao)
        let pairs = try await withThrowingTaskGroup(of: (String, Int64).self) { group in
            for index in 0..<40 {
                group.addTask {
                    let content = "item \(index)"
                    if index.isMultiple(of: 2) { return (content, try await demo.insertItem(content: content)) }
                    let rowID = try await dao.call("insertItem", ["content": .text(content)]).insertedRowID
                    return (content, try #require(rowID))
                }
            }
            return try await group.reduce(into: [(String, Int64)]()) { $0.append($1) }
        }
        #expect(Set(pairs.map(\.1)).count == 40)
        for (content, rowID) in pairs {
            #expect(try await demo.getItem(index: rowID) == content)
        }
    }

    @Test("no row inserted: nil; foreach: the last row's id; a try whose except updates: no id")
    func edgeCases() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: Self.module), database: try await directory.database())
        let demo = RowIDDemoDAO(dao: dao)
        #expect(try await demo.maybeInsert(content: nil) == nil)
        #expect(try await demo.maybeInsert(content: "a") == 1)
        let error = await daoError { _ = try await dao.call("maybeInsert", ["content": nil]).decode(Int64.self) }
        #expect(error?.kind == .resultTypeMismatch)
        let all = try await dao.call("insertAll", ["contents": ["b", "c"]])
        #expect(all.insertedRowID == 3)
        #expect(try all.decode(Int.self) == 2)
        #expect(try await dao.call("upsert", ["content": "d", "newContent": "d"]).insertedRowID == 4)
        let updated = try await dao.call("upsert", ["content": "d", "newContent": "e"])
        #expect(updated.insertedRowID == nil)
        #expect(try updated.decode(Int.self) == 1)
        let transactionID = try await dao.transaction { tx in try tx.call("insertItem", ["content": "f"]).insertedRowID }
        #expect(transactionID == 5)
    }
}
