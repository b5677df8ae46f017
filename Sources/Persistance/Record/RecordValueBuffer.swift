/// The storage behind `RecordValues`: one slot per column, reused from record to record.
///
/// Laid out on a table's columns, an unknown column is an error; without a table, new
/// columns are appended. The slot of the n-th `set` is remembered from the previous
/// record, so records that set their columns in a stable order (every `Codable` type and
/// most hand-written ones) find each slot with one string comparison.
///
/// The buffer is used by one operation on one thread, so its stored properties opt out
/// of run-time exclusivity checks, which would otherwise cost more than the writes.
@usableFromInline
final class RecordValueBuffer {
    @exclusivity(unchecked) private(set) var columns: [String]
    @exclusivity(unchecked) private var slotByFoldedName: [String: Int]
    /// The table the slots belong to; nil when any column is accepted.
    private let table: String?
    /// The value set in each slot for the current record; nil when none was.
    @exclusivity(unchecked) private var values: [DatabaseValue?]
    @exclusivity(unchecked) private var slotOfWrite: [Int] = []
    @exclusivity(unchecked) private var writeCount = 0
    /// A failure noticed where Codable cannot throw (a container request), thrown at the end.
    @exclusivity(unchecked) private var deferredError: DatabaseError?

    /// Slots for `columns`, whose folded names map to their position in `slotByFoldedName`.
    init(columns: [String], slotByFoldedName: [String: Int], table: String) {
        self.columns = columns
        self.slotByFoldedName = slotByFoldedName
        self.table = table
        values = Array(repeating: nil, count: columns.count)
    }

    /// Slots that grow with each new column set.
    init() {
        columns = []
        slotByFoldedName = [:]
        table = nil
        values = []
    }

    /// Forgets the previous record's values.
    @usableFromInline
    func beginRecord() {
        for slot in values.indices { values[slot] = nil }
        writeCount = 0
        deferredError = nil
    }

    /// Throws the first failure that could not be thrown when it happened.
    @usableFromInline
    func finishRecord() throws {
        if let deferredError { throw deferredError }
    }

    /// Records a failure to throw from `finishRecord()`.
    func fail(_ error: DatabaseError) {
        if deferredError == nil { deferredError = error }
    }

    @usableFromInline
    func set(_ value: DatabaseValue, forColumn column: String) throws {
        values[try slot(for: column)] = value
    }

    /// The value set for `column`, or nil when none was.
    func value(forColumn column: String) -> DatabaseValue? {
        slotByFoldedName[RowColumns.fold(column)].flatMap { values[$0] }
    }

    /// The value set in `slot`, or nil when none was.
    @inline(__always)
    func value(at slot: Int) -> DatabaseValue? {
        values[slot]
    }

    /// The columns set, in slot order.
    var row: Row {
        Row(columns.indices.compactMap { slot in values[slot].map { (columns[slot], $0) } })
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
        values.append(nil)
        return columns.count - 1
    }
}
