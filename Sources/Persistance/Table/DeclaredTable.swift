/// A table declaration, whatever record type it stores: what a database needs to create its
/// table and check the file against it when it opens. Every ``Table`` is one.
///
/// List the tables of a database in ``DatabaseConfiguration/tables`` or answer them from
/// ``ConfigurationTarget/tables(for:)``:
///
/// ```swift
/// var configuration = DatabaseConfiguration(path: path)
/// configuration.tables = [players, notes]      // Table<Player>, Table<Note>
/// ```
public protocol DeclaredTable: Sendable {
    /// The table's name, unquoted.
    var name: String { get }
    /// The declared columns, in order, the primary key column marked.
    var columns: [ColumnDefinition] { get }
    /// The declared indexes.
    var indexes: [IndexDefinition] { get }
    /// The primary key column, or nil when rows are identified by their `rowid`.
    var primaryKey: String? { get }
}

extension Table: DeclaredTable {}

extension DeclaredTable {
    /// The checked declaration, with the SQL that creates it.
    var declaredSchema: TableSchema {
        if let table = self as? any SchemaCarrying { return table.schema }
        return TableSchema(name: name, primaryKey: primaryKey, columns: columns, indexes: indexes)
    }
}

/// A declaration that already holds its checked schema (a ``Table``), so opening a database
/// does not check it again.
protocol SchemaCarrying {
    var schema: TableSchema { get }
}

extension Table: SchemaCarrying {}
