/// The storage behind `RecordValues`: one slot per column, reused from record to record.
///
/// Laid out on a table's columns, an unknown column is an error; without a table, new
/// columns are appended. The slot of the n-th `set` is remembered from the previous
/// record, so records that set their columns in a stable order (every `Codable` type and
/// most hand-written ones) find each slot with one comparison: of the coding key's
/// identity (see `CodingKeyIdentity`), or of the column name. A new record is begun in
/// constant time: a slot counts as set only if it was set in the current generation.
///
/// While binding to a statement whose parameter `n` is column `n - 1` (an insert or an
/// upsert, see `bind(to:_:)`), each value is bound as it is set, a NULL replaced by the
/// column default, and only whether it was NULL is kept. Text and blobs are then copied
/// into the buffer's own memory and bound in place, with no allocation per value.
///
/// The buffer is used by one operation on one thread, so its stored properties opt out
/// of run-time exclusivity checks, which would otherwise cost more than the writes.
@usableFromInline
final class RecordValueBuffer {
    /// One `set` call of a record: the slot it set, and the key that named the column.
    @usableFromInline
    struct Write {
        @usableFromInline var slot: Int
        @usableFromInline var key: CodingKeyIdentity
    }

    @usableFromInline
    struct Slot {
        @usableFromInline var generation: UInt32 = 0
        @usableFromInline var isNull = true
        @usableFromInline var value = DatabaseValue.null

        @usableFromInline
        init() {}
    }

    @exclusivity(unchecked) @usableFromInline private(set) var columns: [String]
    @exclusivity(unchecked) private var slotByFoldedName: [String: Int]
    /// The table the slots belong to; nil when any column is accepted.
    private let table: String?
    /// Whether a property with no column is dropped rather than an error (a table's opt-in).
    private let ignoresUnknownColumns: Bool
    /// Each column's default, stored in place of NULL when binding.
    @usableFromInline let defaults: [DatabaseValue?]
    /// One slot per column; memory of the buffer's own, so that setting a slot checks nothing.
    @exclusivity(unchecked) @usableFromInline private(set) var slots: UnsafeMutableBufferPointer<Slot>
    @exclusivity(unchecked) @usableFromInline var generation: UInt32 = 1
    /// How many slots the current record has set.
    @exclusivity(unchecked) @usableFromInline var setCount = 0
    /// The slot of each `set` call of the previous record, in call order, with the identity
    /// of the coding key that named its column (`none` for a column named by a string).
    @exclusivity(unchecked) @usableFromInline var writes: [Write] = []
    @exclusivity(unchecked) @usableFromInline var writeCount = 0
    /// A failure noticed where Codable cannot throw (a container request), thrown at the end.
    @exclusivity(unchecked) @usableFromInline private(set) var deferredError: DatabaseError?
    /// Binds each value as it is set to the statement of `bind(to:_:)`, while it runs.
    @exclusivity(unchecked) @usableFromInline var binder: ParameterBinder?
    /// Where the text and blob values bound by `binder` are kept until its statement runs.
    @exclusivity(unchecked) private var boundBytes: ParameterBytes?
    /// The one slot whose value is kept while binding, for the operation to read back; -1 for none.
    @exclusivity(unchecked) @usableFromInline var keptSlot = -1
    /// The last record type asked to bind in column order, and whether its columns are the slots.
    @exclusivity(unchecked) @usableFromInline var columnOrderType: ObjectIdentifier?
    @exclusivity(unchecked) @usableFromInline var columnOrderMatches = false

    /// Slots for a table's `columns`, whose folded names map to their position in
    /// `slotByFoldedName`, with their `defaults`.
    init(
        columns: [String], slotByFoldedName: [String: Int], defaults: [DatabaseValue?], table: String,
        ignoresUnknownColumns: Bool
    ) {
        self.columns = columns
        self.slotByFoldedName = slotByFoldedName
        self.defaults = defaults
        self.table = table
        self.ignoresUnknownColumns = ignoresUnknownColumns
        slots = .allocate(capacity: columns.count)
        slots.initialize(repeating: Slot())
    }

    deinit {
        boundBytes?.deallocate()
        slots.deinitialize().deallocate()
    }

    /// Slots that grow with each new column set.
    init() {
        columns = []
        slotByFoldedName = [:]
        defaults = []
        table = nil
        ignoresUnknownColumns = false
        slots = .allocate(capacity: 0)
    }

    /// Replaces the previous record's values with those `record` sets; `encoder`, whose
    /// buffer this is, writes a Codable record.
    @inlinable
    func encode(_ record: some Record, with encoder: RowEncoder) throws {
        beginRecord()
        var container = RecordValues(lentBy: self, encoder: encoder)
        do {
            try record.encode(into: &container)
        } catch {
            try checkReturned(container, encoder)
            throw error
        }
        try checkReturned(container, encoder)
        try finishRecord()
    }

    /// Throws when `encode(into:)` moved out the container it was lent (and put another in
    /// its place), after making this buffer and `encoder` live for good: the moved
    /// container refers to them without keeping them alive.
    @inlinable @inline(__always)
    func checkReturned(_ container: borrowing RecordValues, _ encoder: RowEncoder) throws {
        guard !container.isLent(by: self) else { return }
        try keepForMovedContainer(encoder)
    }

    @usableFromInline
    func keepForMovedContainer(_ encoder: RowEncoder) throws {
        _ = Unmanaged.passRetained(self)
        _ = Unmanaged.passRetained(encoder)
        throw DatabaseError(
            kind: .invalidArguments,
            message: "encode(into:) replaced the container it was given; set the values on that container")
    }

    /// Forgets the previous record's values.
    @usableFromInline
    func beginRecord() {
        generation &+= 1
        if generation == 0 {  // wrapped: clear the old marks once every 2³² records
            for slot in slots.indices { slots[slot].generation = 0 }
            generation = 1
        }
        writeCount = 0
        setCount = 0
        if deferredError != nil { deferredError = nil }
    }

    /// Throws the first failure that could not be thrown when it happened; when binding,
    /// binds the default (or NULL) of every column the record did not set.
    @inlinable
    func finishRecord() throws {
        guard deferredError != nil || (binder != nil && setCount < slots.count) else { return }
        try finishIncompleteRecord()
    }

    @usableFromInline
    func finishIncompleteRecord() throws {
        if let deferredError { throw deferredError }
        guard let binder, setCount < slots.count else { return }
        for slot in slots.indices where slots[slot].generation != generation {
            try binder.bind(default: defaults[slot], at: slot + 1)
        }
    }

    /// Records a failure to throw from `finishRecord()`.
    func fail(_ error: DatabaseError) {
        if deferredError == nil { deferredError = error }
    }

    /// Sets `column` of the current record to `value`: binds it (NULL replaced by the
    /// column default) when binding, else keeps it.
    @inlinable
    func set(_ value: DatabaseValue, forColumn column: String) throws {
        try set(value, atSlot: slot(for: column))
    }

    /// Sets slot `slot` (from `slot(for:)`) of the current record to `value`, as
    /// `set(_:forColumn:)` does.
    @inlinable
    func set(_ value: DatabaseValue, atSlot slot: Int) throws {
        guard slot != Self.ignoredSlot else { return }
        let isNull = value.isNull
        markSet(slot, isNull: isNull)
        guard let binder else { return slots[slot].value = value }
        if slot == keptSlot { slots[slot].value = value }
        try binder.bind(isNull ? defaults[slot] ?? .null : value, at: slot + 1)
    }

    /// Marks `slot` as set by the current record, to NULL or not.
    @inlinable @inline(__always)
    func markSet(_ slot: Int, isNull: Bool) {
        if slots[slot].generation != generation { setCount += 1 }
        slots[slot].generation = generation
        slots[slot].isNull = isNull
    }

    /// Binds each value to parameter `slot + 1` of `statement` as it is set, while `body`
    /// runs; then clears the statement's parameters, which may point into this buffer.
    @usableFromInline
    func bind<Result>(to statement: Statement, _ body: () throws -> Result) throws -> Result {
        if boundBytes == nil { boundBytes = ParameterBytes(count: slots.count) }
        binder = try ParameterBinder(statement, keepingBytesIn: boundBytes)
        defer {
            binder = nil
            statement.clearBindings()
        }
        return try body()
    }

    /// The value set for `column`, or nil when none was (or values are bound, not kept).
    func value(forColumn column: String) -> DatabaseValue? {
        slotByFoldedName[RowColumns.fold(column)].flatMap(value(at:))
    }

    /// The value set in `slot`, or nil when none was (or values are bound, not kept).
    func value(at slot: Int) -> DatabaseValue? {
        guard slots[slot].generation == generation, binder == nil || slot == keptSlot else { return nil }
        return slots[slot].value
    }

    /// Whether the current record set `slot`.
    func isSet(at slot: Int) -> Bool {
        slots[slot].generation == generation
    }

    /// Whether `slot` was set to a value other than NULL.
    @usableFromInline
    func holdsValue(at slot: Int) -> Bool {
        isSet(at: slot) && !slots[slot].isNull
    }

    /// The columns set, in slot order.
    var row: Row {
        Row(columns.indices.compactMap { slot in value(at: slot).map { (columns[slot], $0) } })
    }

    /// The slot of a property that has no column, in a table that ignores those.
    @usableFromInline static let ignoredSlot = -1

    /// The slot of `column`, predicted from the previous record's order of calls; `ignoredSlot`
    /// for a column the table does not have when the table ignores those.
    @inlinable @inline(__always)
    func slot(for column: String) throws -> Int {
        let write = writeCount
        writeCount = write &+ 1
        if write < writes.count {
            let predicted = writes[write].slot
            if predicted != Self.ignoredSlot, columns[predicted] == column { return predicted }
        }
        return try learnSlot(for: column, key: .none, write: write)
    }

    /// The slot of the column coded under `key`, as `slot(for:)` finds it; predicted by the
    /// key's identity when it has one, so that a Codable record's columns are found without
    /// their names.
    @inline(__always)
    func slot<Key: CodingKey>(for key: borrowing Key) throws -> Int {
        let write = writeCount
        writeCount = write &+ 1
        let identity = CodingKeyIdentity(key)
        if identity != .none, write < writes.count, writes[write].key == identity { return writes[write].slot }
        return try learnSlot(for: key.stringValue, key: identity, write: write)
    }

    /// The slot of `column` for call number `write`, remembered with `key`, the identity of
    /// the coding key that named it: the predicted slot when it is that column's, else the
    /// slot looked up by name.
    @usableFromInline
    func learnSlot(for column: String, key: CodingKeyIdentity, write: Int) throws -> Int {
        if write < writes.count, writes[write].slot != Self.ignoredSlot, columns[writes[write].slot] == column {
            writes[write].key = key
            return writes[write].slot
        }
        let learned = Write(slot: try lookUpSlot(for: column), key: key)
        if write < writes.count {
            writes[write] = learned
        } else {
            writes.append(learned)
        }
        return learned.slot
    }

    private func lookUpSlot(for column: String) throws -> Int {
        let folded = RowColumns.fold(column)
        if let slot = slotByFoldedName[folded] { return slot }
        if ignoresUnknownColumns { return Self.ignoredSlot }
        if let table {
            throw DatabaseError(
                kind: .columnNotFound, message: "table \"\(table)\" has no column \"\(column)\"", column: column)
        }
        slotByFoldedName[folded] = columns.count
        columns.append(column)
        let grown = UnsafeMutableBufferPointer<Slot>.allocate(capacity: columns.count)
        _ = grown.moveInitialize(fromContentsOf: slots)
        grown.initializeElement(at: slots.count, to: Slot())
        slots.deallocate()
        slots = grown
        return columns.count - 1
    }
}
