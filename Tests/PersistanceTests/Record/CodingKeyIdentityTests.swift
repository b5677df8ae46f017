import Foundation
import Testing

@testable import Persistance

/// A one-byte key that is not an enum: its string is picked by its byte.
private struct IndexKey: CodingKey, Equatable {
    static let names = ["id", "name", "score"]
    let index: UInt8

    init(_ index: UInt8) { self.index = index }
    init?(stringValue: String) {
        guard let index = Self.names.firstIndex(of: stringValue) else { return nil }
        self.index = UInt8(index)
    }
    init?(intValue: Int) { nil }
    var stringValue: String { Self.names[Int(index)] }
    var intValue: Int? { nil }
}

/// A key that holds its name: no identity, found by name.
private struct NameKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
}

/// A key of eight bytes with no references: too long for an identity.
private struct WideKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) {
        guard let index = IndexKey.names.firstIndex(of: stringValue) else { return nil }
        self.index = index
    }
    init?(intValue: Int) { nil }
    var stringValue: String { IndexKey.names[index] }
    var intValue: Int? { nil }
}

private enum NameOnly: CodingKey { case name }
private enum ScoreOnly: CodingKey { case score }
private enum FirstKeys: CodingKey { case id, name }
private enum SecondKeys: CodingKey { case name, id }

/// The columns of `Reading`, coded through the key type its `keys` names.
private enum ReadingKeys: String, Codable { case index, name, wide, singleCase }

/// A record that codes its columns through the key type `keys` names, in the order
/// `reversed` says: each row may find the previous row's prediction wrong.
private struct Reading: IDNameScoreRecord, Codable {
    nonisolated(unsafe) static var keys = ReadingKeys.index
    nonisolated(unsafe) static var decodedRows = 0
    var id: Int64
    var name: String
    var score: Double

    init(id: Int64, name: String, score: Double) {
        (self.id, self.name, self.score) = (id, name, score)
    }

    /// Whether the row codes its values in reverse order (odd ids).
    private static func reversed(_ id: Int64) -> Bool { id % 2 == 1 }

    init(from decoder: any Decoder) throws {
        switch Self.keys {
        case .index:
            let container = try decoder.container(keyedBy: IndexKey.self)
            id = try container.decode(Int64.self, forKey: IndexKey(0))
            if Self.reversed(id) {
                score = try container.decode(Double.self, forKey: IndexKey(2))
                name = try container.decode(String.self, forKey: IndexKey(1))
            } else {
                name = try container.decode(String.self, forKey: IndexKey(1))
                score = try container.decode(Double.self, forKey: IndexKey(2))
            }
        case .name:
            let container = try decoder.container(keyedBy: NameKey.self)
            id = try container.decode(Int64.self, forKey: NameKey("id"))
            if Self.reversed(id) {
                score = try container.decode(Double.self, forKey: NameKey("score"))
                name = try container.decode(String.self, forKey: NameKey("name"))
            } else {
                name = try container.decode(String.self, forKey: NameKey("name"))
                score = try container.decode(Double.self, forKey: NameKey("score"))
            }
        case .wide:
            let container = try decoder.container(keyedBy: WideKey.self)
            id = try container.decode(Int64.self, forKey: WideKey(0))
            name = try container.decode(String.self, forKey: WideKey(1))
            score = try container.decode(Double.self, forKey: WideKey(2))
        case .singleCase:
            // Every other row asks for `score` first: the same byte as the other rows' `id`,
            // in another key type.
            Self.decodedRows += 1
            let scoreFirst = Self.decodedRows % 2 == 1
            var score = 0.0
            if scoreFirst { score = try decoder.container(keyedBy: ScoreOnly.self).decode(Double.self, forKey: .score) }
            id = try decoder.container(keyedBy: FirstKeys.self).decode(Int64.self, forKey: .id)
            name = try decoder.container(keyedBy: NameOnly.self).decode(String.self, forKey: .name)
            if !scoreFirst { score = try decoder.container(keyedBy: ScoreOnly.self).decode(Double.self, forKey: .score) }
            self.score = score
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch Self.keys {
        case .index:
            var container = encoder.container(keyedBy: IndexKey.self)
            if Self.reversed(id) {
                try container.encode(score, forKey: IndexKey(2))
                try container.encode(name, forKey: IndexKey(1))
                try container.encode(id, forKey: IndexKey(0))
            } else {
                try container.encode(id, forKey: IndexKey(0))
                try container.encode(name, forKey: IndexKey(1))
                try container.encode(score, forKey: IndexKey(2))
            }
        case .name:
            var container = encoder.container(keyedBy: NameKey.self)
            if Self.reversed(id) {
                try container.encode(score, forKey: NameKey("score"))
                try container.encode(name, forKey: NameKey("name"))
                try container.encode(id, forKey: NameKey("id"))
            } else {
                try container.encode(id, forKey: NameKey("id"))
                try container.encode(name, forKey: NameKey("name"))
                try container.encode(score, forKey: NameKey("score"))
            }
        case .wide:
            var container = encoder.container(keyedBy: WideKey.self)
            try container.encode(id, forKey: WideKey(0))
            try container.encode(name, forKey: WideKey(1))
            try container.encode(score, forKey: WideKey(2))
        case .singleCase:
            // Odd rows set `score` first: the same byte as the even rows' `id`, in another key type.
            if Self.reversed(id) {
                var score = encoder.container(keyedBy: ScoreOnly.self)
                try score.encode(self.score, forKey: .score)
            }
            var first = encoder.container(keyedBy: FirstKeys.self)
            try first.encode(id, forKey: .id)
            var name = encoder.container(keyedBy: NameOnly.self)
            try name.encode(self.name, forKey: .name)
            if !Self.reversed(id) {
                var score = encoder.container(keyedBy: ScoreOnly.self)
                try score.encode(self.score, forKey: .score)
            }
        }
    }

    static let table = Table<Reading>(
        "readings", primaryKey: "id", columns: [.integer("id", primaryKey: .plain), .text("name"), .real("score")])
}

@Suite(.serialized) struct CodingKeyIdentityTests {
    @Test func aOneByteKeyIsIdentifiedByItsTypeAndValue() {
        #expect(CodingKeyIdentity(FirstKeys.id) == CodingKeyIdentity(FirstKeys.id))
        #expect(CodingKeyIdentity(FirstKeys.id) != CodingKeyIdentity(FirstKeys.name))
        #expect(CodingKeyIdentity(IndexKey(1)) == CodingKeyIdentity(IndexKey(1)))
        #expect(CodingKeyIdentity(IndexKey(1)) != CodingKeyIdentity(IndexKey(2)))
        // The same byte in another key type: another identity.
        #expect(CodingKeyIdentity(FirstKeys.name) != CodingKeyIdentity(SecondKeys.id))
        #expect(CodingKeyIdentity(FirstKeys.id) != .none)
    }

    @Test func aOneCaseKeyIsIdentifiedByItsType() {
        #expect(MemoryLayout<NameOnly>.size == 0)
        #expect(CodingKeyIdentity(NameOnly.name) == CodingKeyIdentity(NameOnly.name))
        #expect(CodingKeyIdentity(NameOnly.name) != CodingKeyIdentity(ScoreOnly.score))
        #expect(CodingKeyIdentity(NameOnly.name) != .none)
    }

    @Test func aKeyWithAReferenceOrOfMoreThanOneByteHasNoIdentity() {
        #expect(CodingKeyIdentity(NameKey("id")) == .none)
        #expect(CodingKeyIdentity(WideKey(0)) == .none)
    }

    /// Inserts, upserts and reads back rows coded through `keys`, whose odd rows code their
    /// values in reverse order (where `keys` allows it).
    private func roundTrip(_ keys: ReadingKeys) throws {
        Reading.keys = keys
        try withTemporaryConnection { conn, _ throws in
            let records = try RecordFixtures.insertAndReadBack(6, into: Reading.table, in: conn)
            let changed = records.map { Reading(id: $0.id, name: $0.name + "'", score: -$0.score) }
            try Reading.table.upsert(contentsOf: changed, uniqueKey: "id", in: conn)
            let updated = try Reading.table.findAll(in: conn).sorted { $0.id < $1.id }
            #expect(updated == changed)
        }
    }

    @Test func oneByteKeysFindTheirColumnsWhenTheOrderChangesFromRowToRow() throws {
        try roundTrip(.index)
    }

    @Test func keysWithoutIdentityAreFoundByNameWhenTheOrderChangesFromRowToRow() throws {
        try roundTrip(.name)
        try roundTrip(.wide)
    }

    @Test func oneCaseKeysOfDifferentTypesFindDifferentColumns() throws {
        try roundTrip(.singleCase)
    }
}
