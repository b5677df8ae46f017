import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: single-value results convert as SQLite does")
struct DAOScalarResultTests {
    static let module = """
        <module name="scalars" tableName="v" initializer="createTable">
        <update id="createTable">
          <step>create table if not exists ${T} (id integer primary key, i integer, r real, t text, b blob)</step>
          <step>insert or ignore into ${T} values (1, 42, 42.0, '12', x'3334')</step>
          <step>insert or ignore into ${T} values (2, 5000000000, 0.1, 'twelve', NULL)</step>
          <step>insert or ignore into ${T} values (3, -7, 3.9, ' 7 ', NULL)</step>
        </update>
        <select id="asString" arguments="column, id" result="string">select @{column no ""} from ${T} where id = #{id}</select>
        <select id="asDouble" arguments="column, id" result="double">select @{column no ""} from ${T} where id = #{id}</select>
        <select id="asInt" arguments="column, id" result="int">select @{column no ""} from ${T} where id = #{id}</select>
        <select id="asLong" arguments="column, id" result="long long">select @{column no ""} from ${T} where id = #{id}</select>
        <select id="asBool" arguments="column, id" result="bool">select @{column no ""} from ${T} where id = #{id}</select>
        <select id="asBinary" arguments="column, id" result="binary">select @{column no ""} from ${T} where id = #{id}</select>
        <select id="strings" result="[string]">select i from ${T} order by id</select>
        </module>
        """

    func dao(_ directory: DAOTemporaryDirectory) async throws -> DAO {
        DAO(module: try DAOModule(xml: Self.module), database: try await directory.database())
    }

    func value(_ dao: DAO, _ method: String, _ column: String, _ id: Int64) async throws -> DatabaseValue {
        guard case .value(let value) = try await dao.call(method, ["column": .text(column), "id": .integer(id)]) else {
            Issue.record("\(method) returned no single value")
            return .null
        }
        return value
    }

    @Test("string reads integers and reals as their text; double reads integers; numbers read numeric text")
    func conversions() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await dao(directory)
        #expect(try await value(dao, "asString", "i", 1) == .text("42"))
        #expect(try await value(dao, "asString", "r", 1) == .text("42.0"))
        #expect(try await value(dao, "asString", "r", 2) == .text("0.1"))
        #expect(try await value(dao, "asString", "b", 1) == .text("34"))
        #expect(try await dao.call("strings").decode([String].self) == ["42", "5000000000", "-7"])
        #expect(try await value(dao, "asDouble", "i", 1) == .real(42.0))
        #expect(try await value(dao, "asDouble", "t", 1) == .real(12))
        #expect(try await value(dao, "asInt", "t", 1) == .integer(12))
        #expect(try await value(dao, "asInt", "t", 3) == .integer(7))
        #expect(try await value(dao, "asInt", "r", 3) == .integer(3))
        #expect(try await value(dao, "asLong", "i", 2) == .integer(5_000_000_000))
        #expect(try await value(dao, "asBool", "i", 3) == .integer(1))
        #expect(try await value(dao, "asBinary", "i", 1) == .blob(Data("42".utf8)))
        #expect(try await value(dao, "asString", "b", 2) == .null)
        #expect(try await dao.call("asDouble", ["column": "i", "id": 1]).decode(Double.self) == 42.0)
    }

    @Test("still errors: an int outside 32 bits, non-numeric text for a numeric result", arguments: [
        ("asInt", "i", Int64(2)), ("asInt", "t", 2), ("asDouble", "t", 2), ("asLong", "t", 2), ("asBool", "t", 2),
    ])
    func mismatches(method: String, column: String, id: Int64) async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await dao(directory)
        let error = await daoError { _ = try await dao.call(method, ["column": .text(column), "id": .integer(id)]) }
        #expect(error?.kind == .resultTypeMismatch)
    }
}
