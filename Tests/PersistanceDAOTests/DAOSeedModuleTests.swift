import Foundation
import Persistance
import PersistanceDAO
import Testing

/// The seed's module snippets, as the seed writes them (its typos kept).
enum DAOSeedSnippets {
    /// The first example, verbatim: the column `index` is an SQL keyword, unquoted.
    static let demo = """
        <module name="Demo" initializer="createTable" tableName="demoTable" version="1.0">
        <update id="createTable">
        create table if not exists ${T} (index integer primary key, content text)
        </update>
        <insert id="insertItem" arguments="content">
        insert into ${T} (content) values(#{content})
        </insert>
        <select id="getItem" arguments="index" result="string">
        select * from ${T} where index = #{index}
        </select>
        </module>
        """

    /// The keyword sections' snippets, gathered into one module.
    static let keywords = """
        <module name="demo" initializer="createTable" tableName="tableDemo" version="1.5" resetOnUpgrade="true" upgradeMinVersion="1.2">
        <const table_columns="(id, time, content, uin, read)"/>
        <map id="messageModelMap" result="MessageModel">
        <result property="msgId" column="id"/>
        </map>
        <crypt class="MessageModel" property="content"/>
        <update id="createTable">
        <step>
        create table if not exists ${T} (id integer primary key, content text, uin integer, read boolean)
        </step>
        <step>
        create index if not exists uin_idx on ${T} (uin)
        </step>
        </update>
        <select id="find" arguments="id, time" result=":messageModelMap">
        select * from ${T} where id = #{id} and time > @{time}
        </select>
        <insert id="addMessages" arguments="messages, onlyRead" foreach="messages.model">
        <if true="model.read or (not onlyRead)">
        insert or replace into ${T} (msgId, content, read) values(#{model.msgId}, #{model.content}, #{model.read})
        </if>
        </insert>
        <insert id="insertMessage" arguments="model">
        insert into ${T} (content) values(#{model.content})
        </insert>
        <select id="getMessage" arguments="msgId" result="MessageModel">
        select * from ${T} where msgId = #{msgId}
        </select>
        <delete id="remove" arguments="msgId">
        delete from ${T} where msgId = #{msgId}
        </delete>
        <update id="proc" arguments="list, prefix">
        <foreach item="iterator" collection="list" open="(" separator="," close=")">
        {prefix}{iterator}
        </foreach>
        </update>
        <upgrade toVersion='1.5'>
        <step resumable="true">alter table ${T} add column1 text</step>
        <step resumable="true">alter table ${T} add column2 text</step>
        </upgrade>
        </module>
        """
}

@Suite("DAO: the seed's own module snippets load and run")
struct DAOSeedModuleTests {
    @Test("the seed's Demo module loads; its unquoted column index fails with SQLite's error")
    func demoTypo() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: DAOSeedSnippets.demo), database: try await directory.database())
        #expect(dao.methodNames == ["createTable", "insertItem", "getItem"])
        let rendered = try await dao.renderedStatements(for: "insertItem", ["content": "something"])
        #expect(rendered.map { squeezed($0.sql) } == [
            "create table if not exists demoTable (index integer primary key, content text)",
            "insert into demoTable (content) values(?)",
        ])
        await #expect(throws: DatabaseError.self) { try await dao.call("insertItem", ["content": "something"]) }
    }

    @Test("the seed's Demo module with the column quoted: insertItem, lastInsertRowId, getItem (select *, result string)")
    func demoQuoted() async throws {
        let directory = try DAOTemporaryDirectory()
        let xml = DAOSeedSnippets.demo.replacingOccurrences(of: "(index integer", with: "(\"index\" integer")
            .replacingOccurrences(of: "where index =", with: "where \"index\" =")
        let dao = DAO(module: try DAOModule(xml: xml), database: try await directory.database())
        try await dao.call("insertItem", ["content": "something"])
        let lastIndex = try await dao.lastInsertRowID()
        // `select *` returns the index first: result="string" reads it as text, as SQLite does.
        #expect(try await dao.call("getItem", ["index": .integer(lastIndex)]).decode(String?.self) == "\(lastIndex)")
    }

    @Test("the keyword snippets load as one module and run, typos (msgId, time) failing with SQLite's error")
    func keywords() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: try DAOModule(xml: DAOSeedSnippets.keywords), database: try await directory.database())
        dao.fieldCipher = XORCipher()
        dao.register(MessageModel.self)
        let model = try MessageModel(msgId: 1, content: "hello", uin: 3, read: true).daoValue()
        let inserted = try await dao.call("insertMessage", ["model": model])
        #expect(inserted.insertedRowID == 1)
        // The seed's `proc` writes `{prefix}{iterator}`, not references: text as it is.
        #expect(try await renderedSQL(dao, "proc", ["list": ["1", "2"], "prefix": "abc"]) == [
            "( {prefix}{iterator} , {prefix}{iterator} )"
        ])
        // The table has no column time, msgId: SQLite says so.
        await #expect(throws: DatabaseError.self) { try await dao.call("find", ["id": 1, "time": 2014]) }
        await #expect(throws: DatabaseError.self) { try await dao.call("getMessage", ["msgId": 1]) }
        await #expect(throws: DatabaseError.self) { try await dao.call("remove", ["msgId": 1]) }
        await #expect(throws: DatabaseError.self) { try await dao.call("addMessages", ["messages": [model], "onlyRead": false]) }
        // Nothing is written by a call that fails; the one inserted row is there, encrypted.
        let stored = try await dao.database.read { connection in
            try connection.fetchOne("SELECT content FROM tableDemo")
        }
        #expect(stored?["content"] == .blob(Data(Data("hello".utf8).map { $0 ^ 0x5A })))
    }
}
