import Foundation
import Persistance

/// Chooses how a `FuzzRecord` stores its dates.
protocol DateStrategyChoice {
    static var strategy: DatabaseDateStrategy { get }
}

enum TextDates: DateStrategyChoice { static let strategy = DatabaseDateStrategy.text }
enum SecondsDates: DateStrategyChoice { static let strategy = DatabaseDateStrategy.secondsSince1970 }
enum MillisecondsDates: DateStrategyChoice { static let strategy = DatabaseDateStrategy.millisecondsSince1970 }

/// A Codable record with a property of every kind the row coder handles: integers of each
/// width, floating point, Bool, text, blobs, dates, UUID, URL, Decimal, raw-value enums,
/// and JSON-stored structs, arrays and dictionaries; optional and not.
struct FuzzRecord<Dates: DateStrategyChoice>: Record, Codable {
    enum Mood: String, Codable { case happy, sad }
    enum Level: Int, Codable { case low = 1, high = 2 }
    struct Nested: Codable { var x: Int; var tags: [String] }

    var id: Int64?
    var int: Int
    var int8: Int8
    var uint64: UInt64
    var uint8: UInt8?
    var double: Double
    var float: Float?
    var bool: Bool
    var text: String
    var data: Data
    var date: Date
    var optionalDate: Date?
    var uuid: UUID?
    var url: URL?
    var decimal: Decimal?
    var mood: Mood
    var level: Level?
    var nested: Nested?
    var list: [Int]?
    var dictionary: [String: Double]?

    static var databaseDateStrategy: DatabaseDateStrategy { Dates.strategy }

    /// The column names, as the row coder derives them from the properties.
    static var columns: [String] {
        ["id", "int", "int8", "uint64", "uint8", "double", "float", "bool", "text", "data", "date", "optionalDate",
         "uuid", "url", "decimal", "mood", "level", "nested", "list", "dictionary"]
    }
}
