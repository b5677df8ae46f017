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
///
/// A container cannot be copied. A write lends one to `encode(into:)` for each record.
public struct RecordValues: ~Copyable {
    /// The buffer the values go to and the row encoder that writes Codable records into it,
    /// not retained: each is kept alive by the write that lends the container, or by
    /// `owned`. Lending one per record then costs no reference counting (atomic, so slow),
    /// and a lent container cannot outlive the write: it cannot be copied, and moving it out
    /// of `encode(into:)` is caught (see `RecordValueBuffer.encode`).
    @usableFromInline let unretainedBuffer: Unmanaged<RecordValueBuffer>
    @usableFromInline let unretainedEncoder: Unmanaged<RowEncoder>
    /// What a container made with `init()` owns (the encoder owns the buffer); nil for a lent one.
    private let owned: RowEncoder?

    /// A container lent by a write, which keeps `buffer` and `encoder` (whose buffer it is)
    /// alive while it is used.
    @usableFromInline
    init(lentBy buffer: RecordValueBuffer, encoder: RowEncoder) {
        unretainedBuffer = Unmanaged.passUnretained(buffer)
        unretainedEncoder = Unmanaged.passUnretained(encoder)
        owned = nil
    }

    /// An empty container that accepts any column, in the order they are set.
    public init() {
        let owned = RowEncoder(buffer: RecordValueBuffer())
        unretainedBuffer = Unmanaged.passUnretained(owned.buffer)
        unretainedEncoder = Unmanaged.passUnretained(owned)
        self.owned = owned
    }

    /// The buffer the values go to.
    var buffer: RecordValueBuffer { unretainedBuffer.takeUnretainedValue() }

    /// Runs `body` with the row encoder that writes a Codable record into the buffer, set
    /// to `dateStrategy`.
    @inlinable
    func withRowEncoder(dateStrategy: DatabaseDateStrategy, _ body: (RowEncoder) throws -> Void) rethrows {
        try unretainedEncoder._withUnsafeGuaranteedRef { encoder in
            encoder.dateStrategy = dateStrategy
            try body(encoder)
        }
    }

    /// Whether this is the container `buffer` lent.
    @usableFromInline
    func isLent(by buffer: RecordValueBuffer) -> Bool {
        owned == nil && unretainedBuffer.toOpaque() == Unmanaged.passUnretained(buffer).toOpaque()
    }

    /// Sets `column` to `value`. A nil optional stores NULL, which a column default replaces.
    /// Throws when the value cannot be stored or the table has no such column.
    @inlinable
    public mutating func set(_ value: some DatabaseValueConvertible, forColumn column: String) throws {
        try unretainedBuffer._withUnsafeGuaranteedRef { try $0.set(value, forColumn: column) }
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
        let encoder = RowEncoder(buffer: RecordValueBuffer())
        try encoder.buffer.encode(self, with: encoder)
        return encoder.buffer.row
    }
}
