import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: calls that fail throw typed errors and leave nothing half-written")
struct DAOCallErrorTests {
    static let module = """
        <module name="errors" initializer="createTable" tableName="items" version="1.0">
        <update id="createTable">create table if not exists ${T} (id integer primary key, content text not null)</update>
        <insert id="add" arguments="$content">insert into ${T} (content) values (#{content})</insert>
        <insert id="addAll" arguments="contents" foreach="contents.content">insert into ${T} (content) values (#{content})</insert>
        <update id="twoSteps" arguments="first, second">
          <step>insert into ${T} (content) values (#{first})</step>
          <step>insert into ${T} (content) values (#{second})</step>
        </update>
        <update id="resumableSteps" arguments="first, second">
          <step resumable="true">insert into ${T} (content) values (#{first})</step>
          <step>insert into ${T} (content) values (#{second})</step>
        </update>
        <select id="count" result="long long">select count(*) from ${T}</select>
        <select id="contentAsInt" result="int">select content from ${T}</select>
        <select id="big" result="int">select 4294967296</select>
        <select id="rows" result="[{}]">select id, content from ${T} order by id</select>
        <select id="one" result="{}">select id, content from ${T} order by id</select>
        <select id="doubles" result="[double]">select id from ${T} order by id</select>
        <select id="flags" result="[bool]">select id - 1 from ${T} order by id</select>
        <select id="data" result="binary">select x'00ff'</select>
        <select id="notRegistered" result="MessageModel">select 1</select>
        </module>
        """

    func makeDAO(_ directory: DAOTemporaryDirectory) async throws -> DAO {
        DAO(module: try DAOModule(xml: Self.module), database: try await directory.database())
    }

    func count(_ dao: DAO) async throws -> Int64 {
        try await dao.call("count").decode(Int64.self)
    }

    @Test("nil for a $ argument, unknown methods and arguments")
    func badCalls() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await makeDAO(directory)
        #expect(await daoError { try await dao.call("add", ["content": nil]) }?.kind == .nilArgument)
        #expect(await daoError { try await dao.call("add") }?.kind == .nilArgument)
        #expect(await daoError { try await dao.call("nothing") }?.kind == .invalidCall)
        #expect(await daoError { try await dao.call("add", ["contnt": "x"]) }?.kind == .invalidCall)
        #expect(await daoError { try await dao.call("add", ["content": ["a"]]) }?.kind == .invalidCall)
        #expect(await daoError { try await dao.call("addAll", ["contents": "x"]) }?.kind == .notACollection)
        #expect(try await count(dao) == 0)
    }

    @Test("arguments passed as pairs: any order, the same errors as a dictionary, and a name passed twice")
    func argumentPairs() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await makeDAO(directory)
        #expect(await daoError { try await dao.call("add", arguments: ["content": nil]) }?.kind == .nilArgument)
        #expect(await daoError { try await dao.call("add", arguments: [:]) }?.kind == .nilArgument)
        #expect(await daoError { try await dao.call("add", arguments: ["contnt": "x"]) }?.kind == .invalidCall)
        #expect(await daoError { try await dao.call("add", arguments: ["content": "x", "content": "y"]) }?.kind == .invalidCall)
        #expect(await daoError { try await dao.call("twoSteps", arguments: ["first": "a", "first": "b"]) }?.kind == .invalidCall)
        await #expect(throws: DatabaseError.self) { try await dao.call("twoSteps", arguments: ["first": "a"]) }
        #expect(try await count(dao) == 0)
        try await dao.call("twoSteps", arguments: ["second": "b", "first": "a"])
        try await dao.call("addAll", arguments: ["contents": ["c", "d"]])
        let contents = try await dao.call("rows", arguments: [:]).decode([Row].self).map { $0["content"] }
        #expect(contents == [.text("a"), .text("b"), .text("c"), .text("d")])
    }

    /// Up to 16 methods are found by scanning their ids, more through a dictionary: either
    /// way each call reaches its own method, and an id the module lacks is an invalidCall.
    @Test("every method of a small and a large module is found by its id", arguments: [3, 16, 17, 40])
    func methodsAreFoundById(count: Int) async throws {
        let directory = try DAOTemporaryDirectory()
        let selects = (0..<count).map { #"<select id="m\#($0)" result="int">select \#($0)</select>"# }
        let module = try DAOModule(xml: #"<module name="many">"# + selects.joined() + "</module>")
        let dao = DAO(module: module, database: try await directory.database())
        for index in (0..<count).reversed() {
            #expect(try await dao.call("m\(index)").decode(Int.self) == index)
        }
        #expect(await daoError { try await dao.call("m\(count)") }?.kind == .invalidCall)
        #expect(await daoError { try await dao.call("M0") }?.kind == .invalidCall)
    }

    @Test("a failing iteration or step rolls the whole method back")
    func rollback() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await makeDAO(directory)
        await #expect(throws: DatabaseError.self) { try await dao.call("addAll", ["contents": ["a", nil, "c"]]) }
        await #expect(throws: DatabaseError.self) { try await dao.call("twoSteps", ["first": "a"]) }
        #expect(try await count(dao) == 0)
        try await dao.call("addAll", ["contents": ["a", "b"]])
        #expect(try await count(dao) == 2)
    }

    @Test("a resumable step's failure is undone alone and the method goes on")
    func resumable() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await makeDAO(directory)
        try await dao.call("resumableSteps", ["second": "b"])
        #expect(try await dao.call("rows").decode([Row].self).map { $0["content"] } == [.text("b")])
        await #expect(throws: DatabaseError.self) { try await dao.call("resumableSteps", ["first": "c"]) }
        #expect(try await count(dao) == 1)
    }

    @Test("the typed conversions of one-row results answer as the general one does")
    func typedOneRowConversions() throws {
        #expect(try DAOResult.value(.null).decode(String?.self) == nil)
        #expect(try DAOResult.value(.text("x")).decode(String?.self) == "x")
        #expect(try DAOResult.done(changes: 3).decode(Int?.self) == 3)
        #expect(try DAOResult.row(nil).decode(Row?.self) == nil)
        #expect(daoError { _ = try DAOResult.value(.text("x")).decode(Row?.self) }?.kind == .resultTypeMismatch)
        #expect(throws: DatabaseError.self) { _ = try DAOResult.value(.text("x")).decode(Int64?.self) }
    }

    @Test("every result kind, and results that do not fit their type")
    func results() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await makeDAO(directory)
        try await dao.call("addAll", ["contents": ["a", "b"]])
        #expect(await daoError { try await dao.call("contentAsInt") }?.kind == .resultTypeMismatch)
        #expect(await daoError { try await dao.call("big") }?.kind == .resultTypeMismatch)
        #expect(await daoError { try await dao.call("notRegistered") }?.kind == .undefinedReference)
        #expect(try await dao.call("doubles").decode([Double].self) == [1, 2])
        #expect(try await dao.call("flags").decode([Bool].self) == [false, true])
        #expect(try await dao.call("data").decode(Data?.self) == Data([0, 255]))
        #expect(try await dao.call("one").decode(Row?.self)?["content"] == .text("a"))
        let rows = try await dao.call("rows")
        #expect(daoError { _ = try rows.decode(String?.self) }?.kind == .resultTypeMismatch)
        #expect(daoError { _ = try rows.decode(Row.self) }?.kind == .resultTypeMismatch)
        #expect(await daoError { _ = try await dao.call("one").decode([Row].self) }?.kind == .resultTypeMismatch)
        await #expect(throws: DatabaseError.self) { _ = try await dao.call("count").decode(String?.self) }
        try await dao.database.write { conn in try conn.execute("DELETE FROM items") }
        #expect(await daoError { _ = try await dao.call("one").decode(Row.self) }?.kind == .resultTypeMismatch)
        #expect(try await dao.call("one").decode(Row?.self) == nil)
    }
}
