import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct TableMacroExpansionTests {
    @Test func generatesTheRecordFromTheStruct() {
        expectExpansion(
            """
            @Table("player")
            public struct Player {
                @Column(primaryKey: .autoincrement) var id: Int64?
                @Column("full_name", unique: true) var name: String
                var score: Double = 0
                var joined: Date?
                @Column(as: Tags.self) var tags: [String]
                @Transient var isSelected = false
                var total: Double { score * 2 }
            }
            """,
            expandedSource: """
                public struct Player {
                    var id: Int64?
                    var name: String
                    var score: Double = 0
                    var joined: Date?
                    var tags: [String]
                    var isSelected = false
                    var total: Double { score * 2 }
                }

                extension Player: Persistance.TableRecord {
                    public static let databaseColumns: [String] = ["id", "full_name", "score", "joined", "tags"]

                    @inline(__always)
                    public init(statement: borrowing Persistance.Statement, columns: borrowing [Int]) throws {
                        let value0 = try Persistance.RecordColumnCoding.value((Int64?).self, in: statement, at: columns[0], column: "id")
                        let value1 = try Persistance.RecordColumnCoding.value((String).self, in: statement, at: columns[1], column: "full_name")
                        let value2 = try Persistance.RecordColumnCoding.value((Double).self, in: statement, at: columns[2], column: "score", default: 0)
                        let value3 = try Persistance.RecordColumnCoding.optionalDate(in: statement, at: columns[3], column: "joined", strategy: Self.databaseDateStrategy)
                        let value4 = try Persistance.RecordColumnCoding.coded(by: Tags.self, in: statement, at: columns[4], column: "tags")
                        self.init(id: value0, name: value1, score: value2, joined: value3, tags: value4)
                    }

                    @inline(__always)
                    public init(row: borrowing Persistance.Row, columns: borrowing [Int]) throws {
                        let value0 = try Persistance.RecordColumnCoding.value((Int64?).self, in: row, at: columns[0], column: "id")
                        let value1 = try Persistance.RecordColumnCoding.value((String).self, in: row, at: columns[1], column: "full_name")
                        let value2 = try Persistance.RecordColumnCoding.value((Double).self, in: row, at: columns[2], column: "score", default: 0)
                        let value3 = try Persistance.RecordColumnCoding.optionalDate(in: row, at: columns[3], column: "joined", strategy: Self.databaseDateStrategy)
                        let value4 = try Persistance.RecordColumnCoding.coded(by: Tags.self, in: row, at: columns[4], column: "tags")
                        self.init(id: value0, name: value1, score: value2, joined: value3, tags: value4)
                    }

                    public func encode(into container: inout Persistance.RecordValues) throws {
                        let appended = try container.inColumnOrder(of: Self.self) { values in
                            try values.append(self.id)
                            try values.append(self.name)
                            try values.append(self.score)
                            try values.append(Persistance.RecordColumnCoding.databaseValue(forDate: self.joined, strategy: Player.databaseDateStrategy))
                            try values.append(Persistance.RecordColumnCoding.databaseValue(for: self.tags, codedBy: Tags.self, column: "tags"))
                        }
                        if appended {
                            return
                        }
                        try container.set(self.id, forColumn: "id")
                        try container.set(self.name, forColumn: "full_name")
                        try container.set(self.score, forColumn: "score")
                        try container.set(Persistance.RecordColumnCoding.databaseValue(forDate: self.joined, strategy: Player.databaseDateStrategy), forColumn: "joined")
                        try container.set(Persistance.RecordColumnCoding.databaseValue(for: self.tags, codedBy: Tags.self, column: "tags"), forColumn: "tags")
                    }

                    public mutating func didInsert(rowID: Int64, column: String) throws {
                        guard column == "id" else {
                            return
                        }
                        guard let key = Int64(exactly: rowID) else {
                            throw Persistance.DatabaseError(kind: .decoding, message: "row id \\(rowID) does not fit in Int64", column: column)
                        }
                        self.id = key
                    }

                    public static let table = Persistance.Table<Player>("player", primaryKey: "id", columns: [
                            .property("id", of: (Int64?).self, primaryKey: .autoincrement, dateStrategy: Player.databaseDateStrategy),
                            .property("full_name", of: (String).self, unique: true, dateStrategy: Player.databaseDateStrategy),
                            .property("score", of: (Double).self, default: 0, dateStrategy: Player.databaseDateStrategy),
                            .property("joined", of: (Date?).self, dateStrategy: Player.databaseDateStrategy),
                            .property("tags", codedBy: Tags.self, optional: false),
                        ], indexes: [])

                    /// The typed references to the columns of `Player`.
                    public struct Columns: Sendable {
                        public let id = Persistance.TypedColumn<Player, Int64?>("id")
                        public let name = Persistance.TypedColumn<Player, String>("full_name")
                        public let score = Persistance.TypedColumn<Player, Double>("score")
                        public let joined = Persistance.TypedColumn<Player, Date?>("joined") {
                            try Persistance.RecordColumnCoding.databaseValue(forDate: $0, strategy: Player.databaseDateStrategy)
                        }
                        public let tags = Persistance.TypedColumn<Player, [String]>("tags") {
                            try Persistance.RecordColumnCoding.databaseValue(for: $0, codedBy: Tags.self, column: "tags")
                        }
                    }

                    /// The columns of `Player`, typed: `Player.columns.id`.
                    public static let columns = Columns()
                }
                """)
    }
    @Test func storesPropertyByPropertyWhenTheStructDeclaresAnInitializer() {
        expectExpansion(
            """
            @Table("note")
            struct Note {
                var id: Int64
                var text: String
                init(text: String) {
                    id = 0
                    self.text = text
                }
            }
            """,
            expandedSource: """
                struct Note {
                    var id: Int64
                    var text: String
                    init(text: String) {
                        id = 0
                        self.text = text
                    }
                }

                extension Note: Persistance.TableRecord {
                    static let databaseColumns: [String] = ["id", "text"]

                    @inline(__always)
                    init(statement: borrowing Persistance.Statement, columns: borrowing [Int]) throws {
                        let value0 = try Persistance.RecordColumnCoding.value((Int64).self, in: statement, at: columns[0], column: "id")
                        let value1 = try Persistance.RecordColumnCoding.value((String).self, in: statement, at: columns[1], column: "text")
                        self.id = value0
                        self.text = value1
                    }

                    @inline(__always)
                    init(row: borrowing Persistance.Row, columns: borrowing [Int]) throws {
                        let value0 = try Persistance.RecordColumnCoding.value((Int64).self, in: row, at: columns[0], column: "id")
                        let value1 = try Persistance.RecordColumnCoding.value((String).self, in: row, at: columns[1], column: "text")
                        self.id = value0
                        self.text = value1
                    }

                    func encode(into container: inout Persistance.RecordValues) throws {
                        let appended = try container.inColumnOrder(of: Self.self) { values in
                            try values.append(self.id)
                            try values.append(self.text)
                        }
                        if appended {
                            return
                        }
                        try container.set(self.id, forColumn: "id")
                        try container.set(self.text, forColumn: "text")
                    }

                    mutating func didInsert(rowID: Int64, column: String) throws {
                        guard column == "id" else {
                            return
                        }
                        guard let key = Int64(exactly: rowID) else {
                            throw Persistance.DatabaseError(kind: .decoding, message: "row id \\(rowID) does not fit in Int64", column: column)
                        }
                        self.id = key
                    }

                    static let table = Persistance.Table<Note>("note", primaryKey: "id", columns: [
                            .property("id", of: (Int64).self, primaryKey: .plain, dateStrategy: Note.databaseDateStrategy),
                            .property("text", of: (String).self, dateStrategy: Note.databaseDateStrategy),
                        ], indexes: [])

                    /// The typed references to the columns of `Note`.
                    struct Columns: Sendable {
                        let id = Persistance.TypedColumn<Note, Int64>("id")
                        let text = Persistance.TypedColumn<Note, String>("text")
                    }

                    /// The columns of `Note`, typed: `Note.columns.id`.
                    static let columns = Columns()
                }
                """)
    }
}
