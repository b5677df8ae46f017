import Foundation
import Persistance
import PersistanceMacros

/// The level of a gadget: an enum stored as its raw text.
enum GadgetLevel: String, Codable, Sendable { case basic, pro }

/// Settings stored as JSON text.
struct GadgetSettings: Codable, Equatable, Sendable {
    var volume: Int
    var labels: [String]
}

/// A `@Table` record with a property of every kind the portable API carries.
@Table("portable_gadget")
struct Gadget: Equatable, Sendable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(unique: true) var code: String
    var count: Int
    var small: Int16
    var ratio: Double
    var bytes: Data
    var made: Date
    var tag: UUID
    var active: Bool
    var price: Decimal
    var level: GadgetLevel
    var settings: GadgetSettings
    var note: String?

    /// A gadget whose values all follow from `number`.
    static func make(_ number: Int, id: Int64? = nil) -> Gadget {
        Gadget(
            id: id, code: "G\(number)", count: number, small: Int16(number % 30_000), ratio: Double(number) + 0.25,
            bytes: Data([0, UInt8(number % 256), 255]), made: Date(timeIntervalSince1970: 1_700_000_000 + Double(number)),
            tag: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number))!, active: number % 2 == 0,
            price: Decimal(string: "\(number).45")!, level: number % 2 == 0 ? .pro : .basic,
            settings: GadgetSettings(volume: number, labels: ["a", "b"]), note: number % 3 == 0 ? nil : "note \(number)")
    }
}

/// The same values as `Gadget`, through the library's Codable coding.
struct CodableGadget: Record, Codable, Equatable, Sendable {
    var id: Int64?
    var code: String
    var count: Int
    var small: Int16
    var ratio: Double
    var bytes: Data
    var made: Date
    var tag: UUID
    var active: Bool
    var price: Decimal
    var level: GadgetLevel
    var settings: GadgetSettings
    var note: String?

    static let table = Table<CodableGadget>("portable_codable_gadget", columns: [
        .property("id", of: Int64?.self, primaryKey: .autoincrement),
        .property("code", of: String.self, unique: true),
        .property("count", of: Int.self),
        .property("small", of: Int16.self),
        .property("ratio", of: Double.self),
        .property("bytes", of: Data.self),
        .property("made", of: Date.self),
        .property("tag", of: UUID.self),
        .property("active", of: Bool.self),
        .property("price", of: Decimal.self),
        .property("level", of: GadgetLevel.self),
        .property("settings", of: GadgetSettings.self),
        .property("note", of: String?.self),
    ])

    init(_ gadget: Gadget) {
        id = gadget.id
        code = gadget.code
        count = gadget.count
        small = gadget.small
        ratio = gadget.ratio
        bytes = gadget.bytes
        made = gadget.made
        tag = gadget.tag
        active = gadget.active
        price = gadget.price
        level = gadget.level
        settings = gadget.settings
        note = gadget.note
    }
}

/// A record keyed by text, which no engine generates.
@Table("portable_tag")
struct PortableTag: Equatable, Sendable {
    @Column(primaryKey: .plain) var name: String
    var uses: Int
}

/// A record of dates, one of them optional, its columns in an order a query can change.
@Table("portable_moment")
struct PortableMoment: Equatable, Sendable {
    @Column(primaryKey: .plain) var number: Int
    var at: Date
    var maybe: Date?
}
