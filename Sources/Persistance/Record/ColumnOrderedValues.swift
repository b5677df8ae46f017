import Foundation

/// A record's column values taken by position, in the order of its `databaseColumns`, and
/// bound straight to the statement's parameters: the fast path of `encode(into:)` when a
/// table inserts or upserts records whose `databaseColumns` are the table's columns in
/// the table's order (as `@Table` declares them).
///
/// ```swift
/// func encode(into container: inout RecordValues) throws {
///     let appended = try container.inColumnOrder(of: Self.self) { values in
///         try values.append(id)
///         try values.append(name)
///         try values.append(score)
///     }
///     if appended { return }
///     try container.set(id, forColumn: "id")
///     try container.set(name, forColumn: "name")
///     try container.set(score, forColumn: "score")
/// }
/// ```
/// Each value goes to the next column; a nil optional stores the column default, or NULL.
/// A column left without a value gets its default, as with `set(_:forColumn:)`. The values
/// exist only inside `RecordValues.inColumnOrder(of:_:)`'s block: they cannot be copied out.
public struct ColumnOrderedValues: ~Copyable {
    /// Kept alive by the container whose block the values are lent to, which they cannot
    /// outlive; used without retaining it.
    @usableFromInline let buffer: Unmanaged<RecordValueBuffer>
    @usableFromInline let binder: ParameterBinder
    @usableFromInline let count: Int
    @usableFromInline var nextSlot = 0

    @inlinable @inline(__always)
    init(buffer: Unmanaged<RecordValueBuffer>, binder: ParameterBinder) {
        self.buffer = buffer
        self.binder = binder
        count = buffer._withUnsafeGuaranteedRef { $0.slots.count }
    }

    /// Appends an integer.
    @inlinable @inline(__always)
    public mutating func append(_ value: Int64) throws {
        try append(Optional(value))
    }

    /// Appends an integer, or the column default when nil.
    @inlinable @inline(__always)
    public mutating func append(_ value: Int64?) throws {
        guard let value else { return try appendNull() }
        let slot = try take(isNull: false, keeping: .integer(value))
        try binder.bind(integer: value, at: slot + 1)
    }

    /// Appends an integer.
    @inlinable @inline(__always)
    public mutating func append(_ value: Int) throws {
        try append(Optional(value))
    }

    /// Appends an integer, or the column default when nil.
    @inlinable @inline(__always)
    public mutating func append(_ value: Int?) throws {
        try append(value.map(Int64.init))
    }

    /// Appends a real number; NaN is refused.
    @inlinable @inline(__always)
    public mutating func append(_ value: Double) throws {
        try append(Optional(value))
    }

    /// Appends a real number, or the column default when nil.
    @inlinable @inline(__always)
    public mutating func append(_ value: Double?) throws {
        guard let value else { return try appendNull() }
        let slot = try take(isNull: false, keeping: .real(value))
        try binder.bind(real: value, at: slot + 1)
    }

    /// Appends text.
    @inlinable @inline(__always)
    public mutating func append(_ value: String) throws {
        try append(Optional(value))
    }

    /// Appends text, or the column default when nil.
    @inlinable @inline(__always)
    public mutating func append(_ value: String?) throws {
        guard let value else { return try appendNull() }
        let slot = try take(isNull: false, keeping: .text(value))
        try binder.bind(text: value, at: slot + 1)
    }

    /// Appends a blob.
    @inlinable @inline(__always)
    public mutating func append(_ value: Data) throws {
        try append(Optional(value))
    }

    /// Appends a blob, or the column default when nil.
    @inlinable @inline(__always)
    public mutating func append(_ value: Data?) throws {
        guard let value else { return try appendNull() }
        let slot = try take(isNull: false, keeping: .blob(value))
        try binder.bind(blob: value, at: slot + 1)
    }

    /// Appends a database value.
    @inlinable @inline(__always)
    public mutating func append(_ value: DatabaseValue) throws {
        if value.isNull { return try appendNull() }
        let slot = try take(isNull: false, keeping: value)
        try binder.bind(value, at: slot + 1)
    }

    /// Appends any other value, as its `databaseValue`.
    @inlinable @inline(__always)
    public mutating func append(_ value: some DatabaseValueConvertible) throws {
        try append(value.databaseValue)
    }

    /// Binds the next column's default, or NULL.
    @inlinable @inline(__always)
    mutating func appendNull() throws {
        let slot = try take(isNull: true, keeping: .null)
        try binder.bind(default: buffer._withUnsafeGuaranteedRef { $0.defaults[slot] }, at: slot + 1)
    }

    /// Marks the next column set and returns its slot, keeping `value` when the operation
    /// reads that column back; throws when every column already has its value.
    @inlinable @inline(__always)
    mutating func take(isNull: Bool, keeping value: @autoclosure () -> DatabaseValue) throws -> Int {
        let slot = nextSlot
        guard slot < count else { throw DatabaseError.extraOrderedValue(count: count) }
        nextSlot = slot &+ 1
        buffer._withUnsafeGuaranteedRef { buffer in
            buffer.markSet(slot, isNull: isNull)
            if slot == buffer.keptSlot { buffer.slots[slot].value = value() }
        }
        return slot
    }
}

extension DatabaseError {
    /// A record appended more values than its table has columns.
    @usableFromInline
    static func extraOrderedValue(count: Int) -> DatabaseError {
        DatabaseError(
            kind: .invalidArguments,
            message: "a record appended more values in column order than the table's \(count) columns")
    }
}

extension RecordValues {
    /// Runs `body` with the record's values to append by position, and returns true, when
    /// the container binds them straight to a statement whose parameters are
    /// `Record.databaseColumns`, in order (a table's insert or upsert of columns declared as
    /// the record declares them). Returns false without running `body` otherwise: the
    /// record then sets its columns by name. Append one value per column, in
    /// `databaseColumns` order.
    @inlinable @inline(__always)
    public mutating func inColumnOrder<Record: FastDecodableRecord>(
        of type: Record.Type, _ body: (inout ColumnOrderedValues) throws -> Void
    ) rethrows -> Bool {
        guard let binder = unretainedBuffer._withUnsafeGuaranteedRef({ $0.binderInColumnOrder(of: type) }) else {
            return false
        }
        var values = ColumnOrderedValues(buffer: unretainedBuffer, binder: binder)
        try body(&values)
        return true
    }
}

extension RecordValueBuffer {
    /// The binder of the current record when its parameters are `Record.databaseColumns`,
    /// in order. Whether a record type's columns are the slots is learned once per buffer
    /// and type.
    @inlinable @inline(__always)
    func binderInColumnOrder<Record: FastDecodableRecord>(of type: Record.Type) -> ParameterBinder? {
        guard let binder else { return nil }
        let identifier = ObjectIdentifier(type)
        if identifier != columnOrderType {
            columnOrderType = identifier
            columnOrderMatches = Record.databaseColumns == columns
        }
        return columnOrderMatches ? binder : nil
    }
}
