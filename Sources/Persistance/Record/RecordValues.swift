/// The column values one record writes: what `Record.encode(into:)` fills.
///
/// When a table writes records, the container is laid out on the table's columns: a
/// column the table does not have is an error, a column the record does not set keeps
/// its default on insert and its stored value on update. Setting columns in the table's
/// order is the fast path: each name is then matched with one comparison and no lookup.
///
/// ```swift
/// func encode(into container: inout RecordValues) throws {
///     try container.set(id, forColumn: "id")
///     try container.set(name, forColumn: "name")
/// }
/// ```
public struct RecordValues {
    @usableFromInline let buffer: RecordValueBuffer
    /// Where the row encoder keeps its keyed container from one record to the next.
    let containers: KeyedContainerCache

    @usableFromInline
    init(buffer: RecordValueBuffer, containers: KeyedContainerCache) {
        self.buffer = buffer
        self.containers = containers
    }

    /// An empty container that accepts any column, in the order they are set.
    public init() {
        buffer = RecordValueBuffer()
        containers = KeyedContainerCache()
    }

    /// Sets `column` to `value`. A nil optional stores NULL, which a column default replaces.
    /// Throws when the value cannot be stored or the table has no such column.
    @inlinable
    public mutating func set(_ value: some DatabaseValueConvertible, forColumn column: String) throws {
        try buffer.set(value, forColumn: column)
    }

    /// The value set for `column` so far, or nil when none was set.
    public func value(forColumn column: String) -> DatabaseValue? {
        buffer.value(forColumn: column)
    }

    /// The columns set so far and their values, in column order.
    public var row: Row {
        buffer.row
    }
}

extension Record {
    /// The record's column values as a `Row`, in the order the record sets them.
    public func encodedRow() throws -> Row {
        let buffer = RecordValueBuffer()
        try buffer.encode(self, reusing: KeyedContainerCache())
        return buffer.row
    }
}
