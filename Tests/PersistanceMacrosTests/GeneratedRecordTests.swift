import Foundation
import PersistanceMacros
import Testing

@Suite struct GeneratedRecordTests {
    static let joined = Date(timeIntervalSince1970: 1_700_000_000.25)

    static func ann() -> Member {
        Member(
            id: nil, name: "Ann", score: 10, age: 30, payload: Data([1, 2]), bytes: [3, 4], role: .admin,
            joined: joined, left: nil, token: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
            homepage: URL(string: "https://example.com/ann"), balance: Decimal(string: "12.50")!,
            address: Address(city: "Oslo", zip: nil), team: "red", displayName: "Annie", tags: ["a", "b"])
    }

    @Test func declaresTheTableFromTheStruct() {
        let table = Member.table
        #expect(table.name == "member")
        #expect(table.primaryKey == "id")
        let columns = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0) })
        #expect(table.columns.map(\.name) == [
            "id", "name", "score", "age", "isActive", "payload", "bytes", "role", "joined", "left", "token",
            "homepage", "balance", "address", "team", "display_name", "tags",
        ])
        #expect(columns["id"]?.primaryKey == .autoincrement)
        #expect(columns["id"]?.affinity == .integer)
        #expect(columns["name"]?.affinity == .text)
        #expect(columns["name"]?.isNotNull == true)
        #expect(columns["name"]?.isUnique == true)
        #expect(columns["score"]?.affinity == .real)
        #expect(columns["score"]?.defaultValue == .real(0))
        #expect(columns["age"]?.isNotNull == false)
        #expect(columns["isActive"]?.affinity == .integer)
        #expect(columns["isActive"]?.defaultValue == .integer(1))
        #expect(columns["payload"]?.affinity == .blob)
        #expect(columns["bytes"]?.affinity == .blob)
        #expect(columns["role"]?.affinity == .text)
        #expect(columns["role"]?.defaultValue == nil)  // `.member` is not a literal
        #expect(columns["joined"]?.affinity == .text)
        #expect(columns["token"]?.affinity == .text)
        #expect(columns["homepage"]?.affinity == .text)
        #expect(columns["balance"]?.affinity == .text)
        #expect(columns["address"]?.affinity == .text)
        #expect(columns["team"]?.defaultValue == .text("none"))
        #expect(columns["tags"]?.affinity == .text)
        #expect(columns["tags"]?.isNotNull == true)
        #expect(columns["isSelected"] == nil)
        #expect(table.indexes == [
            .index("member_team_score", on: ["team", "score"]), .index("member_team", on: ["team"]),
        ])
        #expect(Event.table.name == "Event")
        #expect(Event.table.primaryKey == "code")
        #expect(Event.table.columns.first { $0.name == "at" }?.affinity == .integer)
        #expect(Item.table.primaryKey == "id")
        #expect(Item.table.columns.first?.primaryKey == .plain)
    }

    @Test func insertsAndReadsEveryKindOfProperty() throws {
        try withTemporaryConnection { conn in
            var ann = Self.ann()
            ann.isSelected = true
            try Member.table.insert(&ann, in: conn)
            #expect(ann.id == 1)
            let found = try #require(try Member.table.find(primaryKey: 1, in: conn))
            var expected = ann
            expected.isSelected = false  // not stored: read back as its default
            #expect(found == expected)
            let row = try #require(try conn.fetchOne("SELECT * FROM member"))
            #expect(row["role"] == .text("admin"))
            #expect(row["address"] == .text(#"{"city":"Oslo"}"#))
            #expect(row["tags"] == .text("a,b"))
            #expect(row["display_name"] == .text("Annie"))
            #expect(row["bytes"] == .blob(Data([3, 4])))
        }
    }

    @Test func datesFollowTheRecordsStrategy() throws {
        try withTemporaryConnection { conn in
            var event = Event(code: "launch", at: Date(timeIntervalSince1970: 1_700_000_000.123))
            try Event.table.insert(&event, in: conn)
            #expect(try conn.fetchOne(Int64.self, "SELECT at FROM Event") == 1_700_000_000_123)
            #expect(try Event.table.find(primaryKey: "launch", in: conn) == event)
            let later = try Event.table.query().filter(Event.columns.at > Date(timeIntervalSince1970: 1_600_000_000)).fetchAll(conn)
            #expect(later == [event])
        }
    }

    @Test func nullInANonOptionalColumnReadsTheDefault() throws {
        try withTemporaryConnection { conn in
            try Member.table.create(in: conn)
            try conn.execute(
                "INSERT INTO member (name, score, isActive, bytes, role, joined, balance, team, tags) VALUES ('Bo', 1, 1, x'', 'member', '2024-01-01 00:00:00.000', '0', 't', '')")
            // A copy without NOT NULL holds the NULLs a foreign writer might leave.
            try conn.execute("CREATE TABLE loose AS SELECT * FROM member")
            try conn.execute("UPDATE loose SET score = NULL, team = NULL, role = NULL, tags = NULL")
            let members = try Member.table.findAll(sql: "SELECT * FROM loose", in: conn)
            #expect(members.map(\.score) == [0])
            #expect(members.map(\.team) == ["none"])
            #expect(members.map(\.role) == [.member])
            #expect(members.map(\.tags) == [[]])
        }
    }

    @Test func nullInANonOptionalColumnWithoutDefaultNamesTheColumn() throws {
        try withTemporaryConnection { conn in
            try Item.table.create(in: conn)
            try conn.execute("CREATE TABLE loose (id INTEGER, label TEXT)")
            try conn.execute("INSERT INTO loose VALUES (1, NULL)")
            let error = expectDatabaseError(.decoding) { try Item.table.findAll(sql: "SELECT * FROM loose", in: conn) }
            #expect(error?.column == "label")
            try conn.execute("UPDATE loose SET label = 'x', id = 'one'")
            let wrongType = expectDatabaseError(.decoding) { try Item.table.findAll(sql: "SELECT * FROM loose", in: conn) }
            #expect(wrongType?.column == "id")
        }
    }

    @Test func aMissingColumnIsAnErrorNamingIt() throws {
        try withTemporaryConnection { conn in
            try Item.table.create(in: conn)
            let error = expectDatabaseError(.columnNotFound) { try Item.table.findAll(sql: "SELECT id FROM item", in: conn) }
            #expect(error?.column == "label")
        }
    }

    @Test func aNonIntegerPrimaryKeyIsLeftAsItIs() throws {
        try withTemporaryConnection { conn in
            var event = Event(code: "x", at: Date(timeIntervalSince1970: 0), count: 2)
            try Event.table.insert(&event, in: conn)
            #expect(event.code == "x")
            var item = Item(id: 0, label: "zero")
            try Item.table.insert(&item, in: conn)
            #expect(try Item.table.find(primaryKey: 0, in: conn) == item)
        }
    }

    @Test func uniqueAndIndexesAreCreated() throws {
        try withTemporaryConnection { conn in
            try Member.table.create(in: conn)
            let indexes = try conn.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'member' ORDER BY name")
            #expect(indexes.contains("member_team"))
            #expect(indexes.contains("member_team_score"))
            var ann = Self.ann()
            try Member.table.insert(&ann, in: conn)
            var twin = Self.ann()
            let error = expectDatabaseError(.sqlite) { try Member.table.insert(&twin, in: conn) }
            #expect(error?.resultCode == .constraint)
        }
    }
}
