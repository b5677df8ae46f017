/// The storage behind `RecordValues`: one slot per column, reused from record to record.
///
/// Laid out on a table's columns, an unknown column is an error; without a table, new
/// columns are appended. The slot of the n-th `set` is remembered from the previous
/// record, so records that set their columns in a stable order (every `Codable` type and
/// most hand-written ones) find each slot with one string comparison. A new record is
/// begun in constant time: a slot counts as set only if it was set in the current
/// generation.
///
/// With a `bindingTarget` (an insert, whose SQL does not depend on the values), each
/// value is bound to parameter `slot + 1` as it is set, a NULL replaced by the column
/// default, and only whether it was NULL is kept.
///
/// The buffer is used by one operation on one thread, so its stored properties opt out
/// of run-time exclusivity checks, which would otherwise cost more than the writes.
@usableFromInline
final class RecordValueBuffer {
    private struct Slot {
        var generation: UInt32 = 0
        var isNull = true
        var value = DatabaseValue.null
    }

    @exclusivity(unchecked) private(set) var columns: [String]
    @exclusivity(unchecked) private var slotByFoldedName: [String: Int]
    /// The table the slots belong to; nil when any column is accepted.
    private let table: String?
    /// Each column's default, stored in place of NULL when binding.
    private let defaults: [DatabaseValue?]
    @exclusivity(unchecked) private var slots: [Slot]
    @exclusivity(unchecked) private var generation: UInt32 = 1
    /// How many slots the current record has set.
    @exclusivity(unchecked) private var setCount = 0
    @exclusivity(unchecked) private var slotOfWrite: [Int] = []
    @exclusivity(unchecked) private var writeCount = 0
    /// A failure noticed where Codable cannot throw (a container request), thrown at the end.
    @exclusivity(unchecked) private var deferredError: DatabaseError?
    /// The statement values are bound to as they are set; nil to keep them instead. Not
    /// retained: the insert that sets it keeps the statement alive and clears it when done.
    @exclusivity(unchecked) @usableFromInline unowned(unsafe) var bindingTarget: Statement?

    /// Slots for a table's `columns`, whose folded names map to their position in
    /// `slotByFoldedName`, with their `defaults`.
    init(columns: [String], slotByFoldedName: [String: Int], defaults: [DatabaseValue?], table: String) {
        self.columns = columns
        self.slotByFoldedName = slotByFoldedName
        self.defaults = defaults
        self.table = table
        slots = Array(repeating: Slot(), count: columns.count)
    }

    /// Slots that grow with each new column set.
    init() {
        columns = []
        slotByFoldedName = [:]
        defaults = []
        table = nil
        slots = []
    }

    /// Replaces the previous record's values with those `record` sets.
    @inlinable
    func encode(_ record: some Record) throws {
        beginRecord()
        var container = RecordValues(buffer: self)
        try record.encode(into: &container)
        try finishRecord()
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
        deferredError = nil
    }

    /// Throws the first failure that could not be thrown when it happened; when binding,
    /// binds the default (or NULL) of every column the record did not set.
    @usableFromInline
    func finishRecord() throws {
        if let deferredError { throw deferredError }
        guard let bindingTarget, setCount < slots.count else { return }
        for slot in slots.indices where slots[slot].generation != generation {
            try bindingTarget.bind(defaults[slot] ?? .null, at: slot + 1)
        }
    }

    /// Records a failure to throw from `finishRecord()`.
    func fail(_ error: DatabaseError) {
        if deferredError == nil { deferredError = error }
    }

    @usableFromInline
    func set(_ value: DatabaseValue, forColumn column: String) throws {
        let slot = try slot(for: column)
        let isNull = value.isNull
        slots.withUnsafeMutableBufferPointer { slots in
            if slots[slot].generation != generation { setCount += 1 }
            slots[slot].generation = generation
            slots[slot].isNull = isNull
        }
        guard let bindingTarget else { return slots[slot].value = value }
        if isNull {
            try bindingTarget.bind(defaults[slot] ?? .null, at: slot + 1)
        } else {
            try bindingTarget.bind(value, at: slot + 1)
        }
    }

    /// The value set for `column`, or nil when none was (or values are bound, not kept).
    func value(forColumn column: String) -> DatabaseValue? {
        slotByFoldedName[RowColumns.fold(column)].flatMap(value(at:))
    }

    /// The value set in `slot`, or nil when none was (or values are bound, not kept).
    func value(at slot: Int) -> DatabaseValue? {
        guard slots[slot].generation == generation, bindingTarget == nil else { return nil }
        return slots[slot].value
    }

    /// Whether `slot` was set to a value other than NULL.
    @usableFromInline
    func holdsValue(at slot: Int) -> Bool {
        slots[slot].generation == generation && !slots[slot].isNull
    }

    /// The columns set, in slot order.
    var row: Row {
        Row(columns.indices.compactMap { slot in value(at: slot).map { (columns[slot], $0) } })
    }

    private func slot(for column: String) throws -> Int {
        defer { writeCount += 1 }
        if writeCount < slotOfWrite.count {
            let predicted = slotOfWrite[writeCount]
            if columns[predicted] == column { return predicted }
        }
        let slot = try lookUpSlot(for: column)
        if writeCount < slotOfWrite.count {
            slotOfWrite[writeCount] = slot
        } else {
            slotOfWrite.append(slot)
        }
        return slot
    }

    private func lookUpSlot(for column: String) throws -> Int {
        let folded = RowColumns.fold(column)
        if let slot = slotByFoldedName[folded] { return slot }
        if let table {
            throw DatabaseError(
                kind: .columnNotFound, message: "table \"\(table)\" has no column \"\(column)\"", column: column)
        }
        slotByFoldedName[folded] = columns.count
        columns.append(column)
        slots.append(Slot())
        return columns.count - 1
    }
}
