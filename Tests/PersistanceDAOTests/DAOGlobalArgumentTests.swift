import Foundation
import PersistanceDAO
import Testing

@Suite("DAO: names only global arguments answer, checked when the module loads")
struct DAOGlobalArgumentTests {
    static let module = """
        <module name="g">
          <select id="who" arguments="name, list" result="string">
            select @{name} || #{user}
            <foreach item="entry" collection="list" open=" || " separator=" || ">#{entry.id}</foreach>
            <if true="flag == 1"> || 'flagged'</if>
          </select>
          <insert id="each" arguments="rows" foreach="rows.row">insert into t values (#{row}, #{tenant})</insert>
          <upgrade toVersion="1.0"><step>update t set owner = #{owner}</step></upgrade>
        </module>
        """

    @Test("the module lists the names its methods read from global arguments")
    func names() throws {
        let module = try DAOModule(xml: Self.module)
        #expect(module.globalArgumentNames == ["user", "flag", "tenant", "owner"])
    }

    @Test("with declared global argument names, every other free name is an error at load, with its place")
    func undeclared() throws {
        let declared = daoError {
            _ = try DAOModule(xml: Self.module, file: "g.xml", globalArgumentNames: ["user", "flag", "tenant", "owner", "more"])
        }
        #expect(declared == nil)
        let error = daoError { _ = try DAOModule(xml: Self.module, file: "g.xml", globalArgumentNames: ["user", "tenant"]) }
        #expect(error?.kind == .undefinedReference)
        #expect(error?.location?.file == "g.xml")
        #expect(error?.location?.line == 5)
        #expect(error?.message.contains("\"flag\" (line 5") == true)
        #expect(error?.message.contains("\"owner\" (line 8") == true)
        #expect(error?.message.contains("user") == false)
        let none = daoError { _ = try DAOModule(xml: Self.module, globalArgumentNames: []) }
        #expect(none?.location?.line == 3)
        #expect(none?.location?.column == 23)
    }

    @Test("without declared names the check waits for the call, which sees the DAO's globals as they are then")
    func atCall() async throws {
        let module = try DAOModule(xml: """
            <module name="g"><select id="who" result="string">select #{user}</select></module>
            """)
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: module, database: try await directory.database())
        let missing = await daoError { _ = try await dao.call("who") }
        #expect(missing?.kind == .undefinedReference)
        dao.globalArguments = ["user": "ann"]
        #expect(try await dao.call("who").decode(String.self) == "ann")
    }
}
