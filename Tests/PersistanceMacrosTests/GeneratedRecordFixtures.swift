import Foundation
import PersistanceMacros

// Records declared once, with `@Table`, used by the run-time tests.

enum Role: String, Codable, Sendable {
    case member, admin
}

struct Address: Codable, Equatable, Sendable {
    var city: String
    var zip: String?
}

/// Stores a list of tags as one comma-separated TEXT.
enum CommaSeparated: ColumnCoder {
    static let affinity = ColumnDefinition.Affinity.text

    static func databaseValue(for tags: [String]) throws -> DatabaseValue {
        .text(tags.joined(separator: ","))
    }

    static func value(from stored: DatabaseValue, column: String) throws -> [String] {
        try String.decode(stored, column: column).split(separator: ",").map(String.init)
    }
}

@Table("member", indexes: [.index("member_team_score", on: ["team", "score"], unique: false)])
struct Member: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(unique: true) var name: String
    var score: Double = 0
    var age: Int?
    var isActive: Bool = true
    var payload: Data?
    var bytes: [UInt8] = []
    var role: Role = .member
    var joined: Date
    var left: Date?
    var token: UUID?
    var homepage: URL?
    var balance: Decimal = 0
    var address: Address?
    @Column(indexed: true) var team: String = "none"
    @Column("display_name") var displayName: String?
    @Column(as: CommaSeparated.self) var tags: [String] = []
    @Transient var isSelected = false
}

/// A record whose dates are stored as INTEGER milliseconds, with a text primary key.
@Table
struct Event: Equatable {
    @Column(primaryKey: .plain) var code: String
    var at: Date
    var count: Int32 = 7

    static var databaseDateStrategy: DatabaseDateStrategy { .millisecondsSince1970 }
}

/// A record whose primary key is found by its name, `id`.
@Table("item")
public struct Item: Equatable {
    public var id: Int
    public var label: String

    public init(id: Int, label: String) {
        self.id = id
        self.label = label
    }
}
