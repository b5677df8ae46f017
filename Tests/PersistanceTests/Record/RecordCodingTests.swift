import Foundation
import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

/// A record with every supported kind of property and custom column names.
private struct Profile: Record, Codable, Equatable {
    enum Color: String, Codable { case red, green }
    enum Level: Int, Codable { case low = 1, high = 2 }
    struct Address: Codable, Equatable {
        var city: String
        var zip: String?
    }

    var id: Int64?
    var created: Date
    var token: UUID
    var homepage: URL
    var balance: Decimal
    var isActive: Bool
    var color: Color
    var level: Level
    var tags: [String]
    var address: Address
    var nickname: String?
    var favoriteColor: Color?

    enum CodingKeys: String, CodingKey {
        case id, token, homepage, balance, color, level, tags, address, nickname
        case created = "created_at"
        case isActive = "is_active"
        case favoriteColor = "favorite_color"
    }

    static let table = Table<Profile>(
        "profile",
        columns: [
            .integer("id", primaryKey: .autoincrement), .text("created_at"), .text("token"), .text("homepage"),
            .text("balance"), .integer("is_active"), .text("color"), .integer("level"), .text("tags"),
            .text("address"), .text("nickname"), .text("favorite_color"),
        ])

    static let sample = Profile(
        id: nil, created: Date(timeIntervalSince1970: 1_700_000_000.123), token: UUID(),
        homepage: URL(string: "https://example.com/a?b=c")!, balance: Decimal(string: "12.34")!, isActive: true,
        color: .red, level: .high, tags: ["a", "b"], address: Address(city: "Paris", zip: nil), nickname: nil,
        favoriteColor: .green)
}

/// A record whose dates are stored as numbers.
private struct Event: Record, Codable, Equatable {
    var id: Int64?
    var at: Date

    static let millisecondTable = Table<Event>(
        "event", columns: [.integer("id", primaryKey: .autoincrement), .numeric("at")])
}

private struct MillisecondEvent: Record, Codable, Equatable {
    var id: Int64?
    var at: Date
    static var databaseDateStrategy: DatabaseDateStrategy { .millisecondsSince1970 }
}

private struct SecondEvent: Record, Codable, Equatable {
    var id: Int64?
    var at: Date
    static var databaseDateStrategy: DatabaseDateStrategy { .secondsSince1970 }
}

/// A record that codes its columns through containers of two key types, one after the
/// other, on every row, asking for each twice when decoding: the encoder's and decoder's
/// kept container changes twice a row, and is handed back again before each change.
private struct TwoKeyTypes: IDNameScoreRecord, Codable {
    var id: Int64
    var name: String
    var score: Double

    enum IDKey: String, CodingKey { case id }
    enum ValueKeys: String, CodingKey { case name, score }

    init(id: Int64, name: String, score: Double) {
        (self.id, self.name, self.score) = (id, name, score)
    }

    init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: IDKey.self).decode(Int64.self, forKey: .id)
        #expect(try decoder.container(keyedBy: IDKey.self).decode(Int64.self, forKey: .id) == id)
        name = try decoder.container(keyedBy: ValueKeys.self).decode(String.self, forKey: .name)
        score = try decoder.container(keyedBy: ValueKeys.self).decode(Double.self, forKey: .score)
    }

    func encode(to encoder: any Encoder) throws {
        var identity = encoder.container(keyedBy: IDKey.self)
        try identity.encode(id, forKey: .id)
        var values = encoder.container(keyedBy: ValueKeys.self)
        try values.encode(name, forKey: .name)
        try values.encode(score, forKey: .score)
    }

    static let table = Table<TwoKeyTypes>(
        "two_keys", primaryKey: "id", columns: [.integer("id", primaryKey: .plain), .text("name"), .real("score")])
}

/// A record with a blob property of each kind, for the encoder's direct path for `Data`.
private struct Blobs: Record, Codable, Equatable {
    var id: Int64
    var required: Data
    var optional: Data?

    static let table = Table<Blobs>(
        "blobs", primaryKey: "id",
        columns: [.integer("id", primaryKey: .plain), .blob("required"), .blob("optional", default: "none")])
}

/// A superclass whose coded properties a subclass record codes through `superDecoder()`
/// and `superEncoder()`: the same row, one set of columns.
private class Entity: Codable {
    var id: Int64

    init(id: Int64) { self.id = id }
}

private final class NamedEntity: Entity, Record, @unchecked Sendable {
    var name: String

    enum CodingKeys: String, CodingKey { case name }

    init(id: Int64, name: String) {
        self.name = name
        super.init(id: id)
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try super.encode(to: container.superEncoder())
    }

    static let table = Table<NamedEntity>(
        "entity", primaryKey: "id", columns: [.integer("id", primaryKey: .plain), .text("name")])
}

/// A record with integer and Boolean properties, optional or not, for the encoder's typed paths.
private struct Flags: Record, Codable, Equatable {
    var id: Int
    var count: Int?
    var isOn: Bool
    var isChecked: Bool?

    static let table = Table<Flags>(
        "flags", primaryKey: "id",
        columns: [.integer("id", primaryKey: .plain), .integer("count", default: "7"), .integer("isOn"), .integer("isChecked")])
}

@Suite struct RecordCodingTests {
    @Test func storesEachPropertyKindInItsColumnForm() throws {
        try withTemporaryConnection { conn, _ throws in
            let profile = Profile.sample
            let id = try Profile.table.insert(profile, in: conn)
            let row = try #require(try conn.fetchOne("SELECT * FROM profile WHERE id = ?", [id]))
            #expect(row["created_at"] == .text("2023-11-14 22:13:20.123"))
            #expect(row["token"] == .text(profile.token.uuidString))
            #expect(row["homepage"] == .text("https://example.com/a?b=c"))
            #expect(row["balance"] == .text("12.34"))
            #expect(row["is_active"] == .integer(1))
            #expect(row["color"] == .text("red"))
            #expect(row["level"] == .integer(2))
            #expect(row["tags"] == .text(#"["a","b"]"#))
            #expect(row["address"] == .text(#"{"city":"Paris"}"#))
            #expect(row["nickname"] == .null)
            #expect(row["favorite_color"] == .text("green"))
        }
    }

    @Test func readsBackEveryPropertyKind() throws {
        try withTemporaryConnection { conn, _ throws in
            var profile = Profile.sample
            try Profile.table.insert(&profile, in: conn)
            #expect(profile.id == 1)
            #expect(try Profile.table.findAll(in: conn) == [profile])
        }
    }

    @Test func dateStrategiesStoreNumbersAndReadText() throws {
        try withTemporaryConnection { conn, _ throws in
            let date = Date(timeIntervalSince1970: 1_700_000_000.5)
            let milliseconds = Table<MillisecondEvent>(
                "event", columns: [.integer("id", primaryKey: .autoincrement), .numeric("at")])
            let seconds = Table<SecondEvent>("event", columns: milliseconds.columns)
            try milliseconds.insert(MillisecondEvent(id: nil, at: date), in: conn)
            try seconds.insert(SecondEvent(id: nil, at: date), in: conn)
            #expect(try conn.fetchAll(DatabaseValue.self, "SELECT at FROM event ORDER BY id")
                == [.integer(1_700_000_000_500), .real(1_700_000_000.5)])
            #expect(try milliseconds.find(primaryKey: 1, in: conn)?.at == date)
            #expect(try seconds.find(primaryKey: 2, in: conn)?.at == date)

            try conn.execute("INSERT INTO event (at) VALUES ('2023-11-14 22:13:20.500')")
            #expect(try milliseconds.find(primaryKey: 3, in: conn)?.at == date)
            #expect(try Event.millisecondTable.find(primaryKey: 3, in: conn)?.at == date)
        }
    }

    @Test func ignoresUnknownColumnsAndReadsMissingOptionalsAsNil() throws {
        try withTemporaryConnection { conn, _ throws in
            try RecordFixtures.players.insert(Player(id: nil, name: "Ann", score: 1, age: 30), in: conn)
            let extra = try RecordFixtures.players.findAll(sql: "SELECT *, 'x' AS unknown FROM player", in: conn)
            #expect(extra == [Player(id: 1, name: "Ann", score: 1, age: 30)])
            let partial = try RecordFixtures.players.findAll(sql: "SELECT name, score FROM player", in: conn)
            #expect(partial == [Player(id: nil, name: "Ann", score: 1, age: nil)])
        }
    }

    @Test func mapsColumnsCaseInsensitively() throws {
        try withTemporaryConnection { conn, _ throws in
            try RecordFixtures.players.create(in: conn)
            try conn.execute("INSERT INTO player (id, name, score) VALUES (7, 'Ann', 2)")
            let found = try RecordFixtures.players.findAll(sql: "SELECT ID, NAME, Score FROM player", in: conn)
            #expect(found == [Player(id: 7, name: "Ann", score: 2, age: nil)])
        }
    }

    @Test func storesDataAndOptionalDataAsBlobs() throws {
        try withTemporaryConnection { conn, _ throws in
            try Blobs.table.create(in: conn)
            let records = [
                Blobs(id: 1, required: Data([1, 2, 3]), optional: Data([4])),
                Blobs(id: 2, required: Data(), optional: Data()),
                Blobs(id: 3, required: Data([5]), optional: nil),
            ]
            try Blobs.table.insert(contentsOf: records, in: conn)
            let stored = try conn.fetchAll("SELECT typeof(required), typeof(optional), optional FROM blobs ORDER BY id")
                .map { [$0[0], $0[1], $0[2]] }
            #expect(stored == [
                [.text("blob"), .text("blob"), .blob(Data([4]))],
                [.text("blob"), .text("blob"), .blob(Data())],
                [.text("blob"), .text("text"), .text("none")],
            ])
            try conn.execute("DELETE FROM blobs WHERE id = 3")  // its default text is no Data
            let found = try Blobs.table.findAll(in: conn).sorted { $0.id < $1.id }
            #expect(found == Array(records.prefix(2)))
        }
    }

    @Test func containersOfTwoKeyTypesAlternateWithinEachRow() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.insertAndReadBack(5, into: TwoKeyTypes.table, in: conn)
        }
    }

    @Test func storesIntegersAndBooleansAsIntegers() throws {
        try withTemporaryConnection { conn, _ throws in
            try Flags.table.create(in: conn)
            let records = [
                Flags(id: 1, count: -3, isOn: true, isChecked: false),
                Flags(id: 2, count: nil, isOn: false, isChecked: nil),
                Flags(id: Int(Int32.max) + 1, count: .max, isOn: true, isChecked: true),
            ]
            try Flags.table.insert(contentsOf: records, in: conn)
            let stored = try conn.fetchAll("SELECT id, count, isOn, isChecked FROM flags ORDER BY id").map {
                [$0[0], $0[1], $0[2], $0[3]]
            }
            let expected: [[DatabaseValue]] = [
                [.integer(1), .integer(-3), .integer(1), .integer(0)],
                [.integer(2), .integer(7), .integer(0), .null],
                [.integer(Int64(Int32.max) + 1), .integer(.max), .integer(1), .integer(1)],
            ]
            #expect(stored == expected)
            let found = try Flags.table.findAll(in: conn).sorted { $0.id < $1.id }
            var withDefault = records
            withDefault[1].count = 7
            #expect(found == withDefault)
        }
    }

    @Test func aSubclassCodesItsSuperclassInTheSameRow() throws {
        try withTemporaryConnection { conn, _ throws in
            try NamedEntity.table.create(in: conn)
            try NamedEntity.table.insert(contentsOf: [NamedEntity(id: 1, name: "a"), NamedEntity(id: 2, name: "b")], in: conn)
            let stored = try conn.fetchAll("SELECT id, name FROM entity ORDER BY id").map { [$0[0], $0[1]] }
            #expect(stored == [[.integer(1), .text("a")], [.integer(2), .text("b")]])
            let found = try NamedEntity.table.findAll(in: conn).sorted { $0.id < $1.id }
            #expect(found.map(\.id) == [1, 2])
            #expect(found.map(\.name) == ["a", "b"])
        }
    }

    @Test func decodesFromAndEncodesToRows() throws {
        let player = Player(id: 3, name: "Bo", score: 2.5, age: nil)
        let row = try player.encodedRow()
        #expect(row == ["id": 3, "name": "Bo", "score": 2.5, "age": nil])
        #expect(try Player(row: row) == player)
        #expect(try Player(row: ["NAME": "Bo", "score": 2.5, "other": "x"]) == Player(id: nil, name: "Bo", score: 2.5))
    }
}

/// Reading a value that does not fit the property is an error naming the column and both types.
@Suite struct RecordDecodingErrorTests {
    private func decodingError(
        _ setUp: String, sql: String = "SELECT * FROM player"
    ) throws -> DatabaseError {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score REAL, age INTEGER)")
            try conn.execute(setUp)
            let error = #expect(throws: DatabaseError.self) {
                try RecordFixtures.players.findAll(sql: sql, in: conn)
            }
            return try #require(error)
        }
    }

    @Test func nullIntoNonOptional() throws {
        let error = try decodingError("INSERT INTO player (name, score) VALUES (NULL, 1)")
        #expect(error.kind == .decoding)
        #expect(error.column == "name")
        #expect(error.message.contains("NULL") && error.message.contains("String"))
    }

    @Test func textIntoDouble() throws {
        let error = try decodingError("INSERT INTO player (name, score) VALUES ('Ann', 'lots')")
        #expect(error.kind == .decoding)
        #expect(error.column == "score")
        #expect(error.message.contains("Double") && error.message.contains("TEXT"))
    }

    @Test func fractionIntoInteger() throws {
        let error = try decodingError("INSERT INTO player (name, score, age) VALUES ('Ann', 1, 2.5)")
        #expect(error.kind == .decoding)
        #expect(error.column == "age")
        #expect(error.message.contains("Int") && error.message.contains("REAL"))
    }

    @Test func missingNonOptionalColumn() throws {
        let error = try decodingError("INSERT INTO player (name, score) VALUES ('Ann', 1)", sql: "SELECT id FROM player")
        #expect(error.kind == .columnNotFound)
        #expect(error.column == "name")
    }

    @Test func outOfRangeInteger() throws {
        struct Small: Record, Codable { var value: Int8 }
        try withTemporaryConnection { conn, _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try Table<Small>("t", columns: [.integer("value")]).findAll(sql: "SELECT 300 AS value", in: conn)
            }
            #expect(error?.kind == .decoding)
            #expect(error?.column == "value")
        }
    }

    @Test func unknownEnumCaseAndBrokenJSON() throws {
        try withTemporaryConnection { conn, _ throws in
            try Profile.table.insert(Profile.sample, in: conn)
            try conn.execute("UPDATE profile SET color = 'purple'")
            let badCase = #expect(throws: DatabaseError.self) { try Profile.table.findAll(in: conn) }
            #expect(badCase?.kind == .decoding)
            #expect(badCase?.column == "color")

            try conn.execute("UPDATE profile SET color = 'red', tags = 'not json'")
            let badJSON = #expect(throws: DatabaseError.self) { try Profile.table.findAll(in: conn) }
            #expect(badJSON?.kind == .decoding)
            #expect(badJSON?.column == "tags")

            try conn.execute("UPDATE profile SET tags = NULL")
            let null = #expect(throws: DatabaseError.self) { try Profile.table.findAll(in: conn) }
            #expect(null?.column == "tags")
            #expect(null?.message.contains("NULL") == true)
        }
    }

    @Test func recordThatIsNotKeyed() throws {
        struct Wrapped: Record, Decodable {
            var value: Int
            init(from decoder: any Decoder) throws {
                value = try decoder.singleValueContainer().decode(Int.self)
            }
        }
        try withTemporaryConnection { conn, _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try Table<Wrapped>("t", columns: [.integer("value")]).findAll(sql: "SELECT 1 AS value", in: conn)
            }
            #expect(error?.kind == .decoding)
        }
    }
}

/// Writing a value SQLite cannot hold faithfully, or a column the table lacks, is an error naming the column.
@Suite struct RecordEncodingErrorTests {
    @Test func nanIsRejected() throws {
        try withTemporaryConnection { conn, _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try RecordFixtures.players.insert(Player(id: nil, name: "Ann", score: .nan), in: conn)
            }
            #expect(error?.kind == .encoding)
            #expect(error?.column == "score")
            let count = try RecordFixtures.players.count(in: conn)
            #expect(count == 0)
        }
    }

    @Test func unsignedOverflowIsRejected() throws {
        struct Counter: Record, Codable { var value: UInt64 }
        try withTemporaryConnection { conn, _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try Table<Counter>("counter", columns: [.integer("value")]).insert(Counter(value: .max), in: conn)
            }
            #expect(error?.kind == .encoding)
            #expect(error?.column == "value")
        }
    }

    @Test func propertyWithoutColumnIsRejected() throws {
        struct Wider: Record, Codable {
            var name: String
            var nickname: String
        }
        try withTemporaryConnection { conn, _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try Table<Wider>("t", columns: [.text("name")]).insert(Wider(name: "a", nickname: "b"), in: conn)
            }
            #expect(error?.kind == .columnNotFound)
            #expect(error?.column == "nickname")
        }
    }

    @Test func nestedContainerIsRejected() throws {
        struct Nested: Record, Codable {
            var name: String
            enum CodingKeys: String, CodingKey { case name }
            init(name: String) { self.name = name }
            init(from decoder: any Decoder) throws {
                name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .name)
                try nested.encode(name, forKey: .name)
            }
        }
        try withTemporaryConnection { conn, _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try Table<Nested>("t", columns: [.text("name")]).insert(Nested(name: "a"), in: conn)
            }
            #expect(error?.kind == .encoding)
            #expect(error?.column == "name")
        }
    }

    @Test func recordWithoutEncodingCannotBeWritten() throws {
        struct ReadOnly: Record {
            var name: String
            static func rowDecoder(for statement: Statement) throws -> RecordDecodingFunction<ReadOnly> {
                RecordDecodingFunction { ReadOnly(name: $0.string(at: 0)) }
            }
        }
        try withTemporaryConnection { conn, _ throws in
            let table = Table<ReadOnly>("t", columns: [.text("name")])
            let error = #expect(throws: DatabaseError.self) { try table.insert(ReadOnly(name: "a"), in: conn) }
            #expect(error?.kind == .encoding)
            #expect(error?.message.contains("ReadOnly") == true)
            try conn.execute("INSERT INTO t VALUES ('b')")
            #expect(try table.findAll(in: conn).map(\.name) == ["b"])
        }
    }
}
