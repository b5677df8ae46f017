import Foundation
import Persistance
import PersistanceDAO
import Testing

/// A record with an encrypted field of each storage class.
struct SecretNote: DAORecord, Equatable {
    var id: Int64
    var body: String?
    var photo: Data?
    var pin: Int64?
    var score: Double?
}

/// A cipher another implementation could have: XOR with a key byte, noting what it was given.
final class XORCipher: DAOFieldCipher, @unchecked Sendable {
    private let lock = NSLock()
    private var given: [Data] = []
    let key: UInt8

    init(key: UInt8 = 0x5A) {
        self.key = key
    }

    /// The plaintexts `encrypt` received, in order.
    var plaintexts: [Data] { lock.withLock { given } }

    func encrypt(_ plaintext: Data, for field: DAOField) throws -> Data {
        lock.withLock { given.append(plaintext) }
        return Data(plaintext.map { $0 ^ key })
    }

    func decrypt(_ ciphertext: Data, for field: DAOField) throws -> Data {
        Data(ciphertext.map { $0 ^ key })
    }
}

@Suite("DAO: field encryption stores exactly what the cipher returns for exactly the value's bytes")
struct DAOFieldEncryptionTests {
    static let module = """
        <module name="notes" initializer="createTable" tableName="notes">
        <crypt class="SecretNote" property="body"/>
        <crypt class="SecretNote" property="photo"/>
        <crypt class="SecretNote" property="pin"/>
        <crypt class="SecretNote" property="score"/>
        <update id="createTable">create table if not exists ${T} (id integer primary key, body, photo, pin, score)</update>
        <insert id="add" arguments="note">
          insert into ${T} (id, body, photo, pin, score) values (#{note.id}, #{note.body}, #{note.photo}, #{note.pin}, #{note.score})
        </insert>
        <insert id="addPlain" arguments="id, body">insert into ${T} (id, body) values (#{id}, #{body})</insert>
        <insert id="addDictionary" arguments="note">insert into ${T} (id, body) values (#{note.id}, #{note.body})</insert>
        <select id="get" arguments="id" result="SecretNote">select * from ${T} where id = #{id}</select>
        <select id="row" arguments="id" result="{}">select * from ${T} where id = #{id}</select>
        </module>
        """

    func dao(_ directory: DAOTemporaryDirectory, cipher: XORCipher) async throws -> DAO {
        let dao = DAO(module: try DAOModule(xml: Self.module), database: try await directory.database())
        dao.fieldCipher = cipher
        dao.register(SecretNote.self)
        return dao
    }

    @Test("the cipher receives the bare bytes, and the column holds its output as a blob")
    func bareBytes() async throws {
        let directory = try DAOTemporaryDirectory()
        let cipher = XORCipher()
        let dao = try await dao(directory, cipher: cipher)
        let note = SecretNote(id: 1, body: "héllo", photo: Data([0, 1, 0xFF]), pin: 1234, score: 2.5)
        try await dao.call("add", ["note": try note.daoValue()])
        #expect(cipher.plaintexts == [Data("héllo".utf8), Data([0, 1, 0xFF]), Data("1234".utf8), Data("2.5".utf8)])
        let stored = try await dao.database.read { connection in
            try connection.fetchOne("SELECT body, photo FROM notes WHERE id = 1")
        }
        #expect(stored?["body"] == .blob(Data(Data("héllo".utf8).map { $0 ^ 0x5A })))
        #expect(stored?["photo"] == .blob(Data([0x5A, 0x5B, 0xA5])))
        #expect(try await dao.call("get", ["id": 1]).decode(SecretNote?.self) == note)
    }

    @Test("data another implementation stored, as TEXT or BLOB, decrypts by the property's declared type; NULL stays NULL")
    func existingData() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await dao(directory, cipher: XORCipher(key: 0x01))
        // XOR 0x01 of ASCII text is ASCII text again: stored as TEXT, as another implementation may have.
        let body = String(decoding: Data("secret".utf8).map { $0 ^ 0x01 }, as: UTF8.self)
        let pin = String(decoding: Data("77".utf8).map { $0 ^ 0x01 }, as: UTF8.self)
        try await dao.database.write { connection in
            try connection.execute("CREATE TABLE notes (id integer primary key, body, photo, pin, score)")
            try connection.execute(
                "INSERT INTO notes (id, body, photo, pin, score) VALUES (1, ?, ?, ?, NULL)",
                [body, Data([0x02, 0x03]), Data(pin.utf8)])
        }
        let note = try await dao.call("get", ["id": 1]).decode(SecretNote?.self)
        #expect(note == SecretNote(id: 1, body: "secret", photo: Data([0x03, 0x02]), pin: 77, score: nil))
    }

    @Test("dictionaries and plain arguments are not encrypted; {} results return the stored form")
    func notEncrypted() async throws {
        let directory = try DAOTemporaryDirectory()
        let cipher = XORCipher()
        let dao = try await dao(directory, cipher: cipher)
        try await dao.call("addPlain", ["id": 1, "body": "plain"])
        try await dao.call("addDictionary", ["note": ["id": 2, "body": "dictionary"]])
        #expect(cipher.plaintexts.isEmpty)
        try await dao.call("add", ["note": try SecretNote(id: 3, body: "x", photo: nil, pin: nil, score: nil).daoValue()])
        #expect(try await dao.call("row", ["id": 1]).decode(Row?.self)?["body"] == .text("plain"))
        #expect(try await dao.call("row", ["id": 3]).decode(Row?.self)?["body"] == .blob(Data([UInt8(ascii: "x") ^ 0x5A])))
        #expect(try await dao.call("row", ["id": 3]).decode(Row?.self)?["photo"] == .null)
    }

    @Test("a plaintext that is not a value of the declared type is decryptionFailed")
    func wrongType() async throws {
        let directory = try DAOTemporaryDirectory()
        let dao = try await dao(directory, cipher: XORCipher(key: 0))
        try await dao.database.write { connection in
            try connection.execute("CREATE TABLE notes (id integer primary key, body, photo, pin, score)")
            try connection.execute("INSERT INTO notes (id, pin) VALUES (1, 'not a number')")
        }
        let error = await daoError { _ = try await dao.call("get", ["id": 1]) }
        #expect(error?.kind == .decryptionFailed)
    }
}
