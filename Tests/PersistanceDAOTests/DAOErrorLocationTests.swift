import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: errors say where (XML faults, call-time errors)")
struct DAOErrorLocationTests {
    @Test("a mismatched tag is reported at its own line and column, in words")
    func mismatchedTag() throws {
        let xml = """
            <module name="m" tableName="t">
            <select id="a" result="int">
              select 1
            </select>
            <select id="b" result="int">
              select 2 </selec>
            <select id="c" result="int">select 3</select>
            </module>
            """
        let error = daoError { _ = try DAOModule(xml: xml, file: "m.xml") }
        #expect(error?.kind == .malformedXML)
        #expect(error?.location?.file == "m.xml")
        #expect(error?.location?.line == 6)
        #expect(error?.message.contains("error 76") == false)
        #expect(error?.message.contains("end tag") == true)
    }

    @Test("an unescaped < in an attribute is reported on its line")
    func lessThanInAttribute() throws {
        let xml = """
            <module name="m" tableName="t">
            <select id="a" arguments="x" result="int">
              <if true="x < 3">select 1</if>
            </select>
            </module>
            """
        let error = daoError { _ = try DAOModule(xml: xml) }
        #expect(error?.kind == .malformedXML)
        #expect(error?.location?.line == 3)
    }

    static let module = """
        <module name="places" tableName="t">
        <select id="mismatch" result="int">select 'text'</select>
        <select id="divide" arguments="a">
          <if true="10 / a &gt; 1">select 1</if>
        </select>
        <select id="undefined">select #{nowhere}</select>
        </module>
        """

    @Test("call-time errors name the module, the method and the position in the module", arguments: [
        ("mismatch", DAOError.Kind.resultTypeMismatch, 2), ("divide", .expressionType, 4), ("undefined", .undefinedReference, 6),
    ])
    func callTime(method: String, kind: DAOError.Kind, line: Int) async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: Self.module, file: "places.xml"), database: try await directory.database())
        let arguments: [String: DAOValue] = method == "divide" ? ["a": 0] : [:]
        let error = await daoError { _ = try await dao.call(method, arguments) }
        #expect(error?.kind == kind)
        #expect(error?.module == "places")
        #expect(error?.method == method)
        #expect(error?.location?.file == "places.xml")
        #expect(error?.location?.line == line)
        #expect(error?.description.contains("module places, method \(method)") == true)
    }
}
