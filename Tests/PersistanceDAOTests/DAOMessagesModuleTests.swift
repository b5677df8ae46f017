import Foundation
import Persistance
import PersistanceDAO
import Testing

@Suite("DAO: the seed's messages module (map, foreach, crypt)")
struct DAOMessagesModuleTests {
    static let models = [
        MessageModel(msgId: 1, content: "hello", uin: 10, read: true),
        MessageModel(msgId: 2, content: "secret plans", uin: 20, read: false),
        MessageModel(msgId: 3, content: nil, uin: 20, read: true),
    ]

    func makeDAO(_ directory: DAOTemporaryDirectory, cipher: (any DAOFieldCipher)? = XORCipher()) async throws -> DAO {
        let dao = DAO(module: try DAOModule(xml: DAOFixtures.messages), database: try await directory.database())
        dao.fieldCipher = cipher
        dao.register(MessageModel.self)
        return dao
    }

    @Test("foreach inserts every model in one call; if skips unread ones when onlyRead")
    func foreachAndIf() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await makeDAO(directory)
        let result = try await dao.call("addMessages", ["messages": try Self.models.daoValue(), "onlyRead": true])
        #expect(try result.decode(Int.self) == 2)
        let all = try await dao.call("byIds", ["idList": [1, 2, 3]]).decode([MessageModel].self)
        #expect(all == [Self.models[0], Self.models[2]])
        try await dao.call("addMessages", ["messages": try Self.models.daoValue(), "onlyRead": false])
        #expect(try await dao.call("byIds", ["idList": [3, 1, 2]]).decode([MessageModel].self) == Self.models)
        #expect(try await renderedSQL(dao, "byIds", ["idList": [3, 1]]) == [#"select * from messages where id in (?,?) order by id"#])
    }

    @Test("map renames columns; @{} inlines a number; a select with foreach returns one result per element")
    func mapAndSelectForeach() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await makeDAO(directory)
        try await dao.call("addMessages", ["messages": try Self.models.daoValue(), "onlyRead": false])
        #expect(try await renderedSQL(dao, "find", ["id": 2, "time": 15]) == [#"select * from messages where id = ? and uin > 15"#])
        #expect(try await dao.call("find", ["id": 2, "time": 15]).decode(MessageModel?.self) == Self.models[1])
        #expect(try await dao.call("find", ["id": 2, "time": 25]).decode(MessageModel?.self) == nil)
        #expect(try await dao.call("counts", ["uins": [10, 20, 30]]).decode([Int].self) == [1, 2, 0])
    }

    @Test("crypt: the column holds the cipher's output, reads decrypt; no cipher is a typed error, nothing written")
    func crypt() async throws {
        let directory = try DAOTemporaryDirectory()
        let cipher = XORCipher()
        let dao = try await makeDAO(directory, cipher: cipher)
        try await dao.call("insertMessage", ["model": try Self.models[1].daoValue()])
        #expect(try await dao.call("find", ["id": 2, "time": 0]).decode(MessageModel?.self) == Self.models[1])
        let stored = try await dao.database.read { conn in try conn.fetchOne(Data.self, "SELECT content FROM messages WHERE id = 2") }
        #expect(stored == Data("secret plans".utf8.map { $0 ^ cipher.key }))

        let noCipher = try await makeDAO(directory, cipher: nil)
        let missing = await daoError { try await noCipher.call("insertMessage", ["model": try Self.models[0].daoValue()]) }
        #expect(missing?.kind == .missingFieldCipher)
        #expect(missing.map { "\($0)".contains("dao.fieldCipher") } == true)
        let unread = await daoError { _ = try await noCipher.call("find", ["id": 2, "time": 0]) }
        #expect(unread?.kind == .missingFieldCipher)
        let count = try await dao.database.read { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM messages") }
        #expect(count == 1)
    }

    @Test("the cipher is the one the configuration target of the database name provides")
    func cipherFromTarget() async throws {
        struct Target_daocrypt: ConfigurationTarget, DAOFieldCipherProviding {
            let directory: String
            func filePath(for database: String) -> String? { directory + "/" + database }
            func fieldCipher(for database: String) -> (any DAOFieldCipher)? {
                database == "daocrypt_main.sqlite" ? XORCipher(key: 0x33) : nil
            }
        }
        let directory = try DAOTemporaryDirectory()
        let registry = TargetRegistry()
        try registry.register(Target_daocrypt(directory: directory.url.path))
        let database = try await Database.open("daocrypt_main.sqlite", registry: registry)
        let dao = DAO(module: try DAOModule(xml: DAOFixtures.messages), database: database, registry: registry)
        dao.register(MessageModel.self)
        try await dao.call("insertMessage", ["model": try Self.models[1].daoValue()])
        #expect(try await dao.call("find", ["id": 2, "time": 0]).decode(MessageModel?.self) == Self.models[1])
        let stored = try await database.read { conn in try conn.fetchOne(Data.self, "SELECT content FROM messages") }
        #expect(stored == Data("secret plans".utf8.map { $0 ^ 0x33 }))
        let other = try await Database.open("daocrypt_other.sqlite", registry: registry)
        #expect(DAO(module: try DAOModule(xml: DAOFixtures.messages), database: other, registry: registry).fieldCipher == nil)
    }

    @Test("a pluggable cipher encrypts and decrypts every storage class")
    func customCipher() async throws {
        let directory = try DAOTemporaryDirectory()
        let reversing = DAOClosureFieldCipher(
            encrypt: { data, _ in Data(data.reversed()) }, decrypt: { data, _ in Data(data.reversed()) })
        let dao = try await makeDAO(directory, cipher: reversing)
        try await dao.call("insertMessage", ["model": try Self.models[0].daoValue()])
        let stored = try await dao.database.read { conn in try conn.fetchOne(Data.self, "SELECT content FROM messages") }
        #expect(stored == Data("hello".utf8.reversed()))
        #expect(try await dao.call("find", ["id": 1, "time": 0]).decode(MessageModel?.self) == Self.models[0])
    }
}
