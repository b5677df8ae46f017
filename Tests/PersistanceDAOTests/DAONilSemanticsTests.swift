import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: nil in expressions and foreach behaves as Objective-C's nil")
struct DAONilSemanticsTests {
    static let module = """
        <module name="nils" tableName="items" initializer="createTable">
        <update id="createTable">create table if not exists ${T} (id integer primary key, year integer)</update>
        <select id="e" arguments="year, list, model"><if true="EXPR">select 1</if></select>
        <insert id="addAll" arguments="years" foreach="years.year">insert into ${T} (year) values (#{year})</insert>
        <insert id="addAllStrict" arguments="$years" foreach="years.year">insert into ${T} (year) values (#{year})</insert>
        <select id="each" arguments="years" foreach="years.year" result="int">select count(*) from ${T} where year = #{year}</select>
        <select id="within" arguments="ids" result="[int]">
          select id from ${T} where 1 = 1 <foreach item="id" collection="ids" open="and id in (" separator="," close=")">#{id}</foreach>
        </select>
        <select id="count" result="int">select count(*) from ${T}</select>
        </module>
        """

    /// Whether `expression` holds for `arguments`.
    func holds(_ expression: String, _ arguments: [String: DAOValue] = [:]) async throws -> Bool {
        let escaped = expression.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(
            module: try DAOModule(xml: Self.module.replacingOccurrences(of: "EXPR", with: escaped)),
            database: try await directory.database())
        return try await !renderedSQL(dao, "e", arguments).isEmpty
    }

    @Test("an ordering comparison with nil is false, not an error", arguments: ["year > 2010", "year < 2010", "year >= 0", "2010 <= year", "year < year"])
    func ordering(expression: String) async throws {
        #expect(try await holds(expression) == false)
        #expect(try await holds("not (\(expression))") == true)
    }

    @Test("the seed's expression: a nil title or year is simply false")
    func seedExpression() async throws {
        #expect(try await holds("(model != nil and year > 2010) or list.count >= 2", ["list": ["a", "b"]]))
        #expect(try await holds("(model != nil and year > 2010) or list.count >= 2", ["model": "t"]) == false)
    }

    @Test("arithmetic with nil gives nil; .count of nil is 0")
    func arithmetic() async throws {
        #expect(try await holds("year + 1 == nil"))
        #expect(try await holds("-year == nil"))
        #expect(try await holds("year * 2 > 1") == false)
        #expect(try await holds("1 / year == nil"))
        #expect(try await holds("list.count == 0"))
        #expect(try await holds("model.name == nil"))
    }

    @Test("a property a record does not have stays an error")
    func missingProperty() async throws {
        let model = try MessageModel(msgId: 1, content: nil, uin: 2, read: true).daoValue()
        let error = await daoError { _ = try await holds("model.title == nil", ["model": model]) }
        #expect(error?.kind == .undefinedReference)
    }

    @Test("a method-level foreach over nil or [] succeeds and runs nothing; $ refuses nil")
    func methodForeach() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: Self.module.replacingOccurrences(of: "EXPR", with: "1")), database: try await directory.database())
        #expect(try await dao.call("addAll", ["years": nil]).decode(Int.self) == 0)
        #expect(try await dao.call("addAll", ["years": []]).decode(Int.self) == 0)
        #expect(try await dao.call("addAll").decode(Int.self) == 0)
        #expect(try await dao.call("each", ["years": nil]).decode([Int].self) == [])
        #expect(try await dao.call("count").decode(Int.self) == 0)
        let strict = await daoError { try await dao.call("addAllStrict", ["years": nil]) }
        #expect(strict?.kind == .nilArgument)
        #expect(try await dao.call("addAllStrict", ["years": []]).decode(Int.self) == 0)
    }

    @Test("an element-level foreach over nil or [] renders nothing, open and close included")
    func elementForeach() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: Self.module.replacingOccurrences(of: "EXPR", with: "1")), database: try await directory.database())
        try await dao.call("addAll", ["years": [1990, 2000]])
        #expect(try await renderedSQL(dao, "within", ["ids": nil]) == ["select id from items where 1 = 1"])
        #expect(try await renderedSQL(dao, "within", ["ids": []]) == ["select id from items where 1 = 1"])
        #expect(try await dao.call("within", ["ids": nil]).decode([Int].self) == [1, 2])
        #expect(try await dao.call("within", ["ids": [2]]).decode([Int].self) == [2])
    }
}
