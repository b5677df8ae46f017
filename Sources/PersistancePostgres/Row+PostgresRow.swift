#if PostgreSQL
import Persistance
import PostgresNIO

extension [DatabaseValue] {
    /// Replaces the values with those of `row`'s cells, converted as `DatabaseValue(_:of:)`
    /// does, the timestamps at `textTimestamps` shown as SQLite's date text. Keeps the array's
    /// storage when it is the only reference to it: the rows of one result, read one after
    /// another, take one allocation between them.
    /// - Throws: `DatabaseError.Kind.decoding` naming the column of a cell that does not convert.
    mutating func replace(withCellsOf row: PostgresRow, textTimestamps: [Int]) throws {
        removeAll(keepingCapacity: true)
        reserveCapacity(row.count)
        do {
            if try !appendDecoding(row) {
                try appendCells(of: row)
            }
            for position in textTimestamps {
                self[position] = try self[position].timestampText()
            }
        } catch let error as DatabaseError where error.column == nil {
            // The tuple decoding does not say which cell failed: the cells are read again one by one.
            removeAll(keepingCapacity: true)
            try appendCells(of: row)
            throw error
        }
    }

    /// Appends the values of `row`'s cells, decoded by postgres-nio as a tuple: it reads the
    /// cells straight from the row's bytes, where iterating a row builds a `PostgresCell` (the
    /// column's name and the cell's bytes retained) for every cell. False, and nothing appended,
    /// for a row of more than 16 columns.
    private mutating func appendDecoding(_ row: PostgresRow) throws -> Bool {
        typealias C = DecodedCell
        switch row.count {
        case 1: append(try row.decode(C.self).value)
        case 2: append(cells: try row.decode((C, C).self))
        case 3: append(cells: try row.decode((C, C, C).self))
        case 4: append(cells: try row.decode((C, C, C, C).self))
        case 5: append(cells: try row.decode((C, C, C, C, C).self))
        case 6: append(cells: try row.decode((C, C, C, C, C, C).self))
        case 7: append(cells: try row.decode((C, C, C, C, C, C, C).self))
        case 8: append(cells: try row.decode((C, C, C, C, C, C, C, C).self))
        case 9: append(cells: try row.decode((C, C, C, C, C, C, C, C, C).self))
        case 10: append(cells: try row.decode((C, C, C, C, C, C, C, C, C, C).self))
        case 11: append(cells: try row.decode((C, C, C, C, C, C, C, C, C, C, C).self))
        case 12: append(cells: try row.decode((C, C, C, C, C, C, C, C, C, C, C, C).self))
        case 13: append(cells: try row.decode((C, C, C, C, C, C, C, C, C, C, C, C, C).self))
        case 14: append(cells: try row.decode((C, C, C, C, C, C, C, C, C, C, C, C, C, C).self))
        case 15: append(cells: try row.decode((C, C, C, C, C, C, C, C, C, C, C, C, C, C, C).self))
        case 16: append(cells: try row.decode((C, C, C, C, C, C, C, C, C, C, C, C, C, C, C, C).self))
        default: return false
        }
        return true
    }

    /// Appends the values of `cells`, a tuple of `DecodedCell`s. A tuple of one type is laid out
    /// as an array of it, so the cells are read where they lie, without walking a generic pack
    /// (which looks up type metadata for every cell).
    private mutating func append<Cells>(cells: Cells) {
        let layout = MemoryLayout<DecodedCell>.self
        let count = (MemoryLayout<Cells>.size - layout.size) / layout.stride + 1
        Swift.withUnsafeBytes(of: cells) { bytes in
            let first = bytes.baseAddress?.assumingMemoryBound(to: DecodedCell.self)
            for cell in UnsafeBufferPointer(start: first, count: count) { append(cell.value) }
        }
    }

    /// Appends the values of `row`'s cells, read one by one.
    /// - Throws: `DatabaseError.Kind.decoding` naming the column of a cell that does not convert.
    private mutating func appendCells(of row: PostgresRow) throws {
        let count = count
        do {
            // Each cell's bytes taken, not copied: the buffer is not retained once more per cell.
            for var cell in row { append(try DatabaseValue(cell.bytes.take(), of: cell.dataType)) }
        } catch var error as DatabaseError {
            error.column = row.dropFirst(self.count - count).first?.columnName
            throw error
        }
    }
}

/// A cell's value as `DatabaseValue(_:of:)` converts it, NULL included, decoded by postgres-nio.
private struct DecodedCell: PostgresDecodable {
    let value: DatabaseValue

    init<JSONDecoder: PostgresJSONDecoder>(
        from bytes: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        value = try DatabaseValue(bytes, of: type)
    }

    static func _decodeRaw<JSONDecoder: PostgresJSONDecoder>(
        from bytes: inout ByteBuffer?, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws -> DecodedCell {
        DecodedCell(value: try DatabaseValue(bytes.take(), of: type))
    }

    private init(value: DatabaseValue) {
        self.value = value
    }
}
#endif
