import Foundation
import Testing

@testable import Persistance

/// Record types and tables shared by the record and table tests, namespaced so that other
/// suites can use the same short names.
enum RecordFixtures {
    /// Creates `table`, inserts `count` records into it, checks that each is stored in its
    /// columns and read back as it was, and returns them.
    @discardableResult
    static func insertAndReadBack<Element: IDNameScoreRecord>(
        _ count: Int, into table: Table<Element>, in conn: Connection
    ) throws -> [Element] {
        try table.create(in: conn)
        let records = (1...count).map { Element(id: Int64($0), name: "n\($0)", score: Double($0) / 4) }
        try table.insert(contentsOf: records, in: conn)
        let stored = try conn.fetchAll("SELECT id, name, score FROM \(table.name) ORDER BY id").map {
            [$0["id"], $0["name"], $0["score"]]
        }
        let expected: [[DatabaseValue?]] = records.map { [.integer($0.id), .text($0.name), .real($0.score)] }
        #expect(stored == expected)
        let found = try table.findAll(in: conn).sorted { $0.id < $1.id }
        #expect(found == records)
        return records
    }

    /// The DESIGN sketch's record: a Codable struct with an optional integer id.
    struct Player: Record, Codable, Equatable {
        var id: Int64?
        var name: String
        var score: Double
        var age: Int?
    }

    static let players = Table<Player>(
        "player", primaryKey: "id",
        columns: [
            .integer("id", primaryKey: .autoincrement),
            .text("name", notNull: true, unique: true),
            .real("score", default: 0),
            .integer("age"),
        ],
        indexes: [.index("player_score", on: ["score"])])

    /// The same columns with a default on `age`.
    static let playersWithDefaultAge = Table<Player>(
        "player", primaryKey: "id",
        columns: [
            .integer("id", primaryKey: .autoincrement),
            .text("name", notNull: true, unique: true),
            .real("score", default: 0),
            .integer("age", default: 18),
        ])

    /// A final class record.
    final class PlayerObject: Record, Codable {
        var id: Int64?
        var name: String
        var score: Double

        init(id: Int64? = nil, name: String, score: Double) {
            self.id = id
            self.name = name
            self.score = score
        }
    }

    static let playerObjects = Table<PlayerObject>(
        "player_object",
        columns: [.integer("id", primaryKey: .plain), .text("name"), .real("score")])

    /// A hand-written record: decodes by column index, encodes in table order.
    struct FastPlayer: FastDecodableRecord, Equatable {
        var id: Int64?
        var name: String
        var score: Double
        var age: Int?

        static let databaseColumns = ["id", "name", "score", "age"]

        init(id: Int64?, name: String, score: Double, age: Int?) {
            self.id = id
            self.name = name
            self.score = score
            self.age = age
        }

        init(statement: Statement, columns: [Int]) {
            id = statement.int64(at: columns[0])
            name = statement.string(at: columns[1])
            score = statement.double(at: columns[2])
            age = statement.isNull(at: columns[3]) ? nil : Int(statement.int64(at: columns[3]))
        }

        func encode(into container: inout RecordValues) throws {
            try container.set(id, forColumn: "id")
            try container.set(name, forColumn: "name")
            try container.set(score, forColumn: "score")
            try container.set(age, forColumn: "age")
        }

        mutating func didInsert(rowID: Int64, column: String) {
            id = rowID
        }
    }

    static let fastPlayers = Table<FastPlayer>(
        "player", columns: players.columns, indexes: players.indexes)

    static let rows = Table<Row>("player", columns: players.columns, indexes: players.indexes)

    /// One row of every kind of value, for round trips.
    struct Sample: Record, Codable, Equatable, Sendable, CustomTestStringConvertible {
        var id: Int64?
        var text: String?
        var integer: Int64?
        var real: Double?
        var blob: Data?

        init(text: String? = nil, integer: Int64? = nil, real: Double? = nil, blob: Data? = nil) {
            self.text = text
            self.integer = integer
            self.real = real
            self.blob = blob
        }

        var testDescription: String {
            "text: \(text.map { "\"\($0)\"" } ?? "nil"), integer: \(integer.map(String.init) ?? "nil"), "
                + "real: \(real.map { "\($0)" } ?? "nil"), blob: \(blob.map { "\($0.count) bytes" } ?? "nil")"
        }
    }

    static let samples = Table<Sample>(
        "sample",
        columns: [
            .integer("id", primaryKey: .autoincrement), .text("text"), .integer("integer"), .real("real"),
            .blob("blob"),
        ])
}

/// A record of an integer `id`, a `name` and a `score`, for `RecordFixtures.insertAndReadBack`.
protocol IDNameScoreRecord: Record, Equatable {
    var id: Int64 { get }
    var name: String { get }
    var score: Double { get }
    init(id: Int64, name: String, score: Double)
}
