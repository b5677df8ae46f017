import Foundation
import FuzzSupport
import Persistance

/// Fuzzes the row decoder and encoder: any row decodes into a record or fails with a
/// `DatabaseError`, the same way whether it is read from a `Row` or from a statement; a
/// decoded record encodes into a row that decodes and encodes again to the same row.

/// The connection statements are prepared on; libFuzzer runs inputs one at a time on one thread.
nonisolated(unsafe) private let connection = try! Connection.inMemory()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecords(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, count: size)
    let row = fuzzedRow(&input)
    switch input.byte() % 3 {
    case 0: check(FuzzRecord<TextDates>.self, row)
    case 1: check(FuzzRecord<SecondsDates>.self, row)
    default: check(FuzzRecord<MillisecondsDates>.self, row)
    }
    return 0
}

/// A row over the record's columns (some left out, some renamed in another case, some
/// extra), each value either typical for its column or any value at all.
private func fuzzedRow(_ input: inout FuzzInput) -> Row {
    var pairs: [(String, DatabaseValue)] = []
    for column in FuzzRecord<TextDates>.columns {
        let choice = input.byte()
        guard choice % 8 != 0 else { continue }  // missing column
        let name = choice % 16 == 1 ? column.uppercased() : column
        pairs.append((name, choice % 4 == 2 ? input.databaseValue() : typicalValue(for: column, &input)))
    }
    if input.byte() % 4 == 0 {
        pairs.append((input.string(), input.databaseValue()))
    }
    return Row(pairs)
}

/// A value of the kind `column` usually holds, with fuzzed content.
private func typicalValue(for column: String, _ input: inout FuzzInput) -> DatabaseValue {
    switch column {
    case "text", "mood", "url": .text(input.string())
    case "data": .blob(Data(input.chunk()))
    case "double", "float": .real(Double(bitPattern: input.uint64()))
    case "date", "optionalDate", "uuid", "decimal", "nested", "list", "dictionary": .text(input.string())
    default: .integer(Int64(bitPattern: input.uint64()) >> Int64(input.byte() % 64))
    }
}

private func check<R: Record & Codable>(_ type: R.Type, _ row: Row) {
    let fromRow = decode { try R(row: row) }
    if let fromStatement = decodeFromStatement(R.self, row) {
        fuzzCheck(outcome(fromRow) == outcome(fromStatement), "a Row and a statement decode \(row) differently: "
            + "\(outcome(fromRow)) vs \(outcome(fromStatement))")
    }
    guard case .success(let record) = fromRow else { return }
    let encoded: Row
    do {
        encoded = try record.encodedRow()
    } catch let error as DatabaseError {
        return fuzzCheck(error.kind == .encoding, "encoding a decoded record failed with \(error)")
    } catch {
        return fuzzCheck(false, "encoding threw \(error)")
    }
    guard case .success(let again) = decode({ try R(row: encoded) }) else {
        return fuzzCheck(false, "the encoded row \(encoded) does not decode (from \(row))")
    }
    fuzzCheck(try again.encodedRow() == encoded, "\(encoded) decodes and encodes to something else")
}

/// The record, or the `DatabaseError` decoding gave; any other error fails the check.
private func decode<R>(_ body: () throws -> R) -> Result<R, DatabaseError> {
    do {
        return .success(try body())
    } catch let error as DatabaseError {
        return .failure(error)
    } catch {
        fuzzCheck(false, "decoding threw a \(type(of: error)), not a DatabaseError: \(error)")
        fatalError()
    }
}

/// What a decoding produced, comparable: the record's encoded row, or the error's kind and column.
private func outcome<R: Record>(_ result: Result<R, DatabaseError>) -> String {
    switch result {
    case .success(let record): "record \(String(describing: try? record.encodedRow()))"
    case .failure(let error): "error \(error.kind) \(error.column ?? "")"
    }
}

/// Decodes the record from `SELECT ? AS "column", …` with the row's values bound; nil when
/// the row cannot be written as such a statement (a NUL in a name, NaN, or no column).
private func decodeFromStatement<R: Record>(_ type: R.Type, _ row: Row) -> Result<R, DatabaseError>? {
    guard row.count > 0, !row.columnNames.contains(where: { $0.utf8.contains(0) }),
          !row.values.contains(where: { if case .real(let real) = $0 { real.isNaN } else { false } })
    else { return nil }
    let columns = row.columnNames.map { "? AS \"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    do {
        let statement = try connection.prepare("SELECT " + columns.joined(separator: ", "))
        try statement.bind(StatementArguments(row.values))
        fuzzCheck(try statement.step(), "SELECT without a row")
        return decode { try R.rowDecoder(for: statement).decode(statement) }
    } catch {
        fuzzCheck(false, "selecting \(row) failed: \(error)")
        return nil
    }
}
