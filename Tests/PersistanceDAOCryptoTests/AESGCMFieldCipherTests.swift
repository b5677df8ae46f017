import Foundation
import Persistance
import PersistanceDAO
import PersistanceDAOCrypto
import Testing

/// A record with an encrypted field.
struct Note: DAORecord, Equatable {
    var id: Int64
    var body: String?
}

@Suite("DAO crypto: the AES-GCM field cipher")
struct AESGCMFieldCipherTests {
    static let body = DAOField(type: "Note", property: "body")
    static let title = DAOField(type: "Note", property: "title")
    static let module = """
        <module name="notes" initializer="createTable" tableName="notes">
        <crypt class="Note" property="body"/>
        <update id="createTable">create table if not exists ${T} (id integer primary key, body)</update>
        <insert id="add" arguments="note">insert into ${T} (id, body) values (#{note.id}, #{note.body})</insert>
        <select id="get" arguments="id" result="Note">select * from ${T} where id = #{id}</select>
        </module>
        """

    @Test("a value seals to nonce + ciphertext + tag, and opens with the same secret")
    func roundTrip() throws {
        let plaintext = Data("secret plans".utf8)
        let sealed = try AESGCMFieldCipher(secret: "k1").encrypt(plaintext, for: Self.body)
        #expect(sealed.count == 12 + plaintext.count + 16)
        #expect(sealed.range(of: plaintext) == nil)
        #expect(try AESGCMFieldCipher(secret: "k1").decrypt(sealed, for: Self.body) == plaintext)
        #expect(try AESGCMFieldCipher(secret: "k1").encrypt(plaintext, for: Self.body) != sealed)
    }

    @Test("a wrong key, another field or damaged bytes do not open")
    func refusals() throws {
        let sealed = try AESGCMFieldCipher(secret: "k1").encrypt(Data("x".utf8), for: Self.body)
        var damaged = sealed
        damaged[damaged.count - 1] ^= 1
        #expect(throws: (any Error).self) { try AESGCMFieldCipher(secret: "k2").decrypt(sealed, for: Self.body) }
        #expect(throws: (any Error).self) { try AESGCMFieldCipher(secret: "k1").decrypt(sealed, for: Self.title) }
        #expect(throws: (any Error).self) { try AESGCMFieldCipher(secret: "k1").decrypt(damaged, for: Self.body) }
        #expect(throws: (any Error).self) { try AESGCMFieldCipher(secret: "k1").decrypt(Data([1, 2]), for: Self.body) }
    }

    @Test("through a DAO: the file holds no plaintext, reads decrypt, a wrong key is decryptionFailed")
    func dao() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persistance-dao-crypto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("notes.sqlite").path
        let database = try await Database.open(configuration: DatabaseConfiguration(path: path))
        let dao = DAO(module: try DAOModule(xml: Self.module), database: database)
        dao.fieldCipher = AESGCMFieldCipher(secret: "k1")
        dao.register(Note.self)
        let note = Note(id: 1, body: "secret plans")
        try await dao.call("add", ["note": try note.daoValue()])
        #expect(try await dao.call("get", ["id": 1]).decode(Note?.self) == note)
        try await database.close()
        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
        #expect(raw.range(of: Data("secret plans".utf8)) == nil)
        #expect(wal.range(of: Data("secret plans".utf8)) == nil)

        let reopened = DAO(module: try DAOModule(xml: Self.module), database: try await Database.open(configuration: DatabaseConfiguration(path: path)))
        reopened.fieldCipher = AESGCMFieldCipher(secret: "not k1")
        reopened.register(Note.self)
        do {
            _ = try await reopened.call("get", ["id": 1])
            Issue.record("a wrong key read the field")
        } catch let error as DAOError {
            #expect(error.kind == .decryptionFailed)
            #expect(!"\(error)".contains("k1"))
        }
    }
}
