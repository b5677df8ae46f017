import SwiftDiagnostics

/// What `@Table` and its property attributes reject at compile time, and the fix-its offered.
enum TableMacroDiagnostic: String, DiagnosticMessage {
    case notAStruct
    case genericStruct
    case missingTypeAnnotation
    case unsupportedType
    case duplicateColumn
    case constantWithValue
    case transientWithoutDefault
    case lazyProperty
    case autoincrementNotInteger
    case twoPrimaryKeys
    case unknownIndexColumn
    case tableNameNotLiteral
    case attributeOnComputedProperty

    var message: String {
        switch self {
        case .notAStruct: "@Table applies to a struct: a record is a value, stored as one row"
        case .genericStruct: "@Table does not apply to a generic struct: a table stores one concrete type"
        case .missingTypeAnnotation: "a stored property of a @Table record needs a type annotation: the column's type follows from it"
        case .unsupportedType:
            "this type cannot be stored in a column: store a value type (numbers, String, Data, Date, UUID, URL, enums, Codable values), use @Column(as:) with a ColumnCoder, or mark the property @Transient"
        case .duplicateColumn: "two properties are stored in the same column (SQLite column names ignore case): give one another name with @Column(\"name\")"
        case .constantWithValue: "a 'let' with a value cannot be read from a row: make it 'var', or mark it @Transient"
        case .transientWithoutDefault: "a @Transient property needs a default value: records read from rows start with it"
        case .lazyProperty: "a lazy property cannot be stored: mark it @Transient"
        case .autoincrementNotInteger: "only an integer primary key can autoincrement"
        case .twoPrimaryKeys: "a @Table record has one primary key column; this is the second"
        case .unknownIndexColumn: "the index names a column the record does not store"
        case .tableNameNotLiteral: "the table name must be a string literal"
        case .attributeOnComputedProperty: "this attribute applies to a stored property of a @Table struct"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "PersistanceMacros", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}

/// A fix-it's label.
struct TableMacroFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "PersistanceMacros", id: message) }
}
