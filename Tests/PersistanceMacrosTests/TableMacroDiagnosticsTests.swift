import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct TableMacroDiagnosticsTests {
    @Test func aClassIsRejectedWithAFixIt() {
        expectExpansion(
            """
            @Table
            class Player {
                var name: String
            }
            """,
            expandedSource: """
                class Player {
                    var name: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Table applies to a struct: a record is a value, stored as one row", line: 2, column: 1,
                    fixIts: [FixItSpec(message: "Make it a struct")])
            ],
            fixedSource: """
                @Table
                struct Player {
                    var name: String
                }
                """)
    }

    @Test func anUnsupportedTypeIsRejectedWithAFixIt() {
        expectExpansion(
            """
            @Table
            struct Player {
                var name: String
                var position: (Int, Int) = (0, 0)
            }
            """,
            expandedSource: """
                struct Player {
                    var name: String
                    var position: (Int, Int) = (0, 0)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "this type cannot be stored in a column: store a value type (numbers, String, Data, Date, UUID, URL, enums, Codable values), use @Column(as:) with a ColumnCoder, or mark the property @Transient",
                    line: 4, column: 19, fixIts: [FixItSpec(message: "Mark it @Transient")])
            ],
            fixedSource: """
                @Table
                struct Player {
                    var name: String
                    @Transient var position: (Int, Int) = (0, 0)
                }
                """)
    }

    @Test func twoPropertiesInOneColumnAreRejected() {
        expectExpansion(
            """
            @Table
            struct Player {
                var name: String
                @Column("NAME") var nickname: String
            }
            """,
            expandedSource: """
                struct Player {
                    var name: String
                    var nickname: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "two properties are stored in the same column (SQLite column names ignore case): give one another name with @Column(\"name\")",
                    line: 4, column: 25)
            ])
    }

    @Test func autoincrementOnTextIsRejectedWithAFixIt() {
        expectExpansion(
            """
            @Table
            struct Player {
                @Column(primaryKey: .autoincrement) var code: String
            }
            """,
            expandedSource: """
                struct Player {
                    var code: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "only an integer primary key can autoincrement", line: 3, column: 25,
                    fixIts: [FixItSpec(message: "Use a plain primary key")])
            ],
            fixedSource: """
                @Table
                struct Player {
                    @Column(primaryKey: .plain) var code: String
                }
                """)
    }

    @Test func twoPrimaryKeysAreRejected() {
        expectExpansion(
            """
            @Table
            struct Pair {
                @Column(primaryKey: .plain) var left: Int
                @Column(primaryKey: .plain) var right: Int
            }
            """,
            expandedSource: """
                struct Pair {
                    var left: Int
                    var right: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "a @Table record has one primary key column; this is the second", line: 4, column: 25)
            ])
    }

    @Test func aConstantWithAValueIsRejectedWithAFixIt() {
        expectExpansion(
            """
            @Table
            struct Player {
                let kind: String = "player"
            }
            """,
            expandedSource: """
                struct Player {
                    let kind: String = "player"
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a 'let' with a value cannot be read from a row: make it 'var', or mark it @Transient",
                    line: 3, column: 5, fixIts: [FixItSpec(message: "Make it 'var'")])
            ],
            fixedSource: """
                @Table
                struct Player {
                    var kind: String = "player"
                }
                """)
    }

    @Test func missingAnnotationsDefaultsAndIndexColumnsAreRejected() {
        expectExpansion(
            """
            @Table(indexes: [.index("by_rank", on: ["rank"])])
            struct Player {
                var name = "x"
                @Transient var cache: [String: Int]
                var score: Double
            }
            """,
            expandedSource: """
                struct Player {
                    var name = "x"
                    var cache: [String: Int]
                    var score: Double
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a stored property of a @Table record needs a type annotation: the column's type follows from it",
                    line: 3, column: 9),
                DiagnosticSpec(
                    message: "a @Transient property needs a default value: records read from rows start with it",
                    line: 4, column: 20),
            ])
        expectExpansion(
            """
            @Table(indexes: [.index("by_rank", on: ["rank"])])
            struct Player {
                var score: Double
            }
            """,
            expandedSource: """
                struct Player {
                    var score: Double
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "the index names a column the record does not store", line: 1, column: 41)
            ])
    }

    @Test func genericStructsAndComputedPropertiesAreRejected() {
        expectExpansion(
            """
            @Table
            struct Box<Value> {
                var value: Int
            }
            """,
            expandedSource: """
                struct Box<Value> {
                    var value: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Table does not apply to a generic struct: a table stores one concrete type", line: 2, column: 11)
            ])
        expectExpansion(
            """
            struct Player {
                @Column var total: Int { 1 }
            }
            """,
            expandedSource: """
                struct Player {
                    var total: Int { 1 }
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "this attribute applies to a stored property of a @Table struct", line: 2, column: 5)
            ])
    }
}
