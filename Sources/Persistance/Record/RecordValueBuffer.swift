/// The storage behind `RecordValues`: one slot per column, reused from record to record.
///
/// Laid out on a table's columns, an unknown column is an error; without a table, new
/// columns are appended. The slot of the n-th `set` is remembered from the previous
/// record, so records that set their columns in a stable order (every `Codable` type and
/// most hand-written ones) find each slot with one string comparison.
final class RecordValueBuffer {
    private(set) var columns: [String]
    private var slotByFoldedName: [String: Int]
    /// The table the slots belong to; nil when any column is accepted.
    private let table: String?
    private(set) var values: [DatabaseValue]
    private(set) var isSet: [Bool]
    private var slotOfWrite: [Int] = []
    private var writeCount = 0
    /// A failure noticed where Codable cannot throw (a container request), thrown at the end.
    private var deferredError: DatabaseError?

    /// Slots for `columns`, whose folded names map to their position in `slotByFoldedName`.
    init(columns: [String], slotByFoldedName: [String: Int], table: String) {
        self.columns = columns
        self.slotByFoldedName = slotByFoldedName
        self.table = table
        values = Array(repeating: .null, count: columns.count)
        isSet = Array(repeating: false, count: columns.count)
    }

    /// Slots that grow with each new column set.
    init() {
        columns = []
        slotByFoldedName = [:]
        table = nil
        values = []
        isSet = []
    }

    /// Forgets the previous record's values.
    func beginRecord() {
        for slot in isSet.indices { isSet[slot] = false }
        writeCount = 0
        deferredError = nil
    }

    /// Throws the first failure that could not be thrown when it happened.
    func finishRecord() throws {
        if let deferredError { throw deferredError }
    }

    /// Records a failure to throw from `finishRecord()`.
    func fail(_ error: DatabaseError) {
        if deferredError == nil { deferredError = error }
    }

    func set(_ value: DatabaseValue, forColumn column: String) throws {
        let slot = try slot(for: column)
        values[slot] = value
        isSet[slot] = true
    }

    /// The value set for `column`, or nil when none was.
    func value(forColumn column: String) -> DatabaseValue? {
        guard let slot = slotByFoldedName[RowColumns.fold(column)], isSet[slot] else { return nil }
        return values[slot]
    }

    /// The value set in `slot`, or nil when none was.
    @inline(__always)
    func value(at slot: Int) -> DatabaseValue? {
        // Not a ternary: its `nil` would be `DatabaseValue.null`, which is nil-literal expressible.
        guard isSet[slot] else { return nil }
        return values[slot]
    }

    /// The columns set, in slot order.
    var row: Row {
        Row(columns.indices.filter { isSet[$0] }.map { (columns[$0], values[$0]) })
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
        values.append(.null)
        isSet.append(false)
        return columns.count - 1
    }
}
