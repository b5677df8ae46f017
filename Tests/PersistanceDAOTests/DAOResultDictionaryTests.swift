import Foundation
import Persistance
import PersistanceDAO
import Testing

/// A custom type that needs one conformance.
struct Contact: DAORecord, Equatable {
    var id: Int64
    var name: String
    var email: String?
}

@Suite("DAO: {} results as dictionaries; a custom type in one conformance")
struct DAOResultDictionaryTests {
    static let module = """
        <module name="contacts" tableName="contacts" initializer="createTable">
        <update id="createTable">create table if not exists ${T} (id integer primary key, name text, email text)</update>
        <insert id="add" arguments="contact">insert into ${T} (id, name, email) values (#{contact.id}, #{contact.name}, #{contact.email})</insert>
        <select id="one" arguments="id" result="{}">select * from ${T} where id = #{id}</select>
        <select id="all" result="[{}]">select * from ${T} order by id</select>
        <select id="contact" arguments="id" result="Contact">select * from ${T} where id = #{id}</select>
        </module>
        """

    @Test("{} decodes to [String: DAOValue], NULL columns absent so the subscript is nil; [{}] to an array of them")
    func dictionaries() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: Self.module), database: try await directory.database())
        dao.register(Contact.self)
        try await dao.call("add", ["contact": try Contact(id: 1, name: "Ann", email: nil).daoValue()])
        try await dao.call("add", ["contact": try Contact(id: 2, name: "Bob", email: "bob@example.com").daoValue()])
        let one = try await dao.call("one", ["id": 1]).decode([String: DAOValue]?.self)
        #expect(one?["name"] == "Ann")
        #expect(one?["email"] == nil)
        #expect(one == ["id": 1, "name": "Ann"])
        let all = try await dao.call("all").decode([[String: DAOValue]].self)
        #expect(all.map { $0["email"] } == [nil, "bob@example.com"])
        #expect(try await dao.call("one", ["id": 9]).decode([String: DAOValue]?.self) == nil)
        #expect(try await dao.call("one", ["id": 2]).decode(Row?.self)?.daoValues["id"] == 2)
        #expect(try await dao.call("contact", ["id": 2]).decode(Contact?.self) == Contact(id: 2, name: "Bob", email: "bob@example.com"))
    }
}
