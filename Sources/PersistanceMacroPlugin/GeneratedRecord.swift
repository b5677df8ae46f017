import SwiftSyntax

/// The source `@Table` generates for one struct: the members of its `TableRecord` extension.
struct GeneratedRecord {
    let typeName: String
    /// `public `, `package ` or nothing.
    let access: String
    let table: TableArguments
    let properties: [RecordProperty]
    /// Whether the struct keeps its synthesized memberwise initializer (see `MemberwiseInitializer`).
    let hasMemberwiseInitializer: Bool

    private let coding = "Persistance.RecordColumnCoding"

    var members: String {
        [
            databaseColumns, initializer(from: "statement", of: "Persistance.Statement"),
            initializer(from: "row", of: "Persistance.Row"), encode, didInsert, tableDeclaration, columns,
        ]
            .compactMap { $0 }
            .joined(separator: "\n\n")
    }

    private var databaseColumns: String {
        "\(access)static let databaseColumns: [String] = [\(properties.map { literal($0.column) }.joined(separator: ", "))]"
    }

    /// Reads every column before storing any property, so that a failed read leaves nothing
    /// half-built; the parameters are borrowed, not retained. Inlined into the fetch loops;
    /// delegating to the memberwise initializer, when the struct has it, lets them build each
    /// record where it is stored instead of copying it. One reads a `Statement`, the other
    /// the `Row`s of the portable API, each with `RecordColumnCoding`'s reads of its source.
    private func initializer(from source: String, of sourceType: String) -> String {
        let reads = properties.indices.map { index in
            "    let value\(index) = try \(read(properties[index], from: source, at: "columns[\(index)]"))"
        }
        let store: [String]
        if hasMemberwiseInitializer {
            let arguments = properties.indices.map { "\(properties[$0].name): value\($0)" }
            store = ["    self.init(\(arguments.joined(separator: ", ")))"]
        } else {
            store = properties.indices.map { "    self.\(properties[$0].name) = value\($0)" }
        }
        return """
            @inline(__always)
            \(access)init(\(source): borrowing \(sourceType), columns: borrowing [Int]) throws {
            \((reads + store).joined(separator: "\n"))
            }
            """
    }

    /// The expression reading `property` from column `index` of `source`.
    private func read(_ property: RecordProperty, from source: String, at index: String) -> String {
        let place = "in: \(source), at: \(index), column: \(literal(property.column))"
        let fallback = (property.defaultValue ?? property.columnDefault).map { ", default: \($0)" } ?? ""
        switch property.storage {
        case .convertible:
            let type = property.isOptional ? "\(property.baseType)?" : property.baseType
            return "\(coding).value((\(type)).self, \(place)\(property.isOptional ? "" : fallback))"
        case .date:
            return property.isOptional
                ? "\(coding).optionalDate(\(place), strategy: Self.databaseDateStrategy)"
                : "\(coding).date(\(place), strategy: Self.databaseDateStrategy\(fallback))"
        case .codable:
            return "\(coding).decodable((\(property.type)).self, \(place), strategy: Self.databaseDateStrategy\(property.isOptional ? "" : fallback))"
        case .coded(let coder):
            return property.isOptional
                ? "\(coding).optionalCoded(by: \(coder).self, \(place))"
                : "\(coding).coded(by: \(coder).self, \(place)\(fallback))"
        }
    }

    /// Binds the values by position when the container binds to the table's columns in
    /// declaration order (an insert or upsert), else sets them by name.
    private var encode: String {
        let appends = properties.map { property in
            "        try values.append(\(storedValue(property, of: "self.\(property.name)")))"
        }
        let sets = properties.map { property in
            "    try container.set(\(storedValue(property, of: "self.\(property.name)")), forColumn: \(literal(property.column)))"
        }
        return """
            \(access)func encode(into container: inout Persistance.RecordValues) throws {
                let appended = try container.inColumnOrder(of: Self.self) { values in
            \(appends.joined(separator: "\n"))
                }
                if appended {
                    return
                }
            \(sets.joined(separator: "\n"))
            }
            """
    }

    /// The expression storing `value`, a value of `property`.
    private func storedValue(_ property: RecordProperty, of value: String) -> String {
        switch property.storage {
        case .convertible: value
        case .date: "\(coding).databaseValue(forDate: \(value), strategy: \(typeName).databaseDateStrategy)"
        case .codable:
            "\(coding).databaseValue(forEncodable: \(value), column: \(literal(property.column)), strategy: \(typeName).databaseDateStrategy)"
        case .coded(let coder): "\(coding).databaseValue(for: \(value), codedBy: \(coder).self, column: \(literal(property.column)))"
        }
    }

    private var primaryKey: RecordProperty? {
        properties.first { $0.primaryKey != nil }
    }

    /// Sets an integer primary key from the row id SQLite chose.
    private var didInsert: String? {
        guard let key = primaryKey, key.isInteger else { return nil }
        return """
            \(access)mutating func didInsert(rowID: Int64, column: String) throws {
                guard column == \(literal(key.column)) else { return }
                guard let key = \(key.baseType)(exactly: rowID) else {
                    throw Persistance.DatabaseError(kind: .decoding, message: "row id \\(rowID) does not fit in \(key.baseType)", column: column)
                }
                self.\(key.name) = key
            }
            """
    }

    private var tableDeclaration: String {
        let columns = properties.map { "        \(columnDefinition($0))," }
        var indexes = properties.filter(\.isIndexed).map {
            ".index(\(literal("\(table.name)_\($0.column)")), on: [\(literal($0.column))])"
        }
        if let declared = table.indexes?.as(ArrayExprSyntax.self) {
            indexes = declared.elements.map { $0.expression.trimmedDescription } + indexes
        }
        var indexList = "[\(indexes.joined(separator: ", "))]"
        if let declared = table.indexes, !declared.is(ArrayExprSyntax.self) {
            indexList = "\(declared.trimmedDescription) + \(indexList)"
        }
        let primaryKeyArgument = primaryKey.map { "primaryKey: \(literal($0.column)), " } ?? ""
        return """
            \(access)static let table = Persistance.Table<\(typeName)>(\(literal(table.name)), \(primaryKeyArgument)columns: [
            \(columns.joined(separator: "\n"))
                ], indexes: \(indexList))
            """
    }

    private func columnDefinition(_ property: RecordProperty) -> String {
        var options = ""
        if let key = property.primaryKey { options += ", primaryKey: \(key)" }
        if property.isUnique { options += ", unique: true" }
        if let value = property.columnDefault ?? property.literalDefault { options += ", default: \(value)" }
        let definition: String
        switch property.storage {
        case .coded(let coder):
            definition = ".property(\(literal(property.column)), codedBy: \(coder).self, optional: \(property.isOptional)\(options))"
        default:
            definition = ".property(\(literal(property.column)), of: (\(property.type)).self\(options), dateStrategy: \(typeName).databaseDateStrategy)"
        }
        let expression = property.defaultExpression.map { ".defaulting(to: \($0))" } ?? ""
        return definition + expression + (property.foreignKey.map(references) ?? "")
    }

    /// `.references(…)` of a foreign key. A reference to the struct itself names its own table
    /// and key: reading `Self.table` while it is being made would not return.
    private func references(_ reference: ColumnArguments.Reference) -> String {
        let actions = [("onDelete", reference.onDelete), ("onUpdate", reference.onUpdate)]
            .compactMap { label, action in action.map { ", \(label): \($0)" } }.joined()
        guard reference.type == typeName || reference.type == "Self" else {
            return ".references(\(reference.type).self\(actions))"
        }
        let key = primaryKey.map { ", column: \(literal($0.column))" } ?? ""
        return ".references(\(literal(table.name))\(key)\(actions))"
    }

    private var columns: String {
        let references = properties.map { property in
            let declaration = "    \(access)let \(property.name) = Persistance.TypedColumn<\(typeName), \(property.type)>(\(literal(property.column)))"
            switch property.storage {
            case .convertible: return declaration
            default: return "\(declaration) { try \(storedValue(property, of: "$0")) }"
            }
        }
        return """
            /// The typed references to the columns of `\(typeName)`.
            \(access)struct Columns: Sendable {
            \(references.joined(separator: "\n"))
            }

            /// The columns of `\(typeName)`, typed: `\(typeName).columns.\(properties.first?.name ?? "name")`.
            \(access)static let columns = Columns()
            """
    }

    private func literal(_ text: String) -> String {
        StringLiteralExprSyntax(content: text).description
    }
}
