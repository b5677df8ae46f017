import Foundation
import FuzzSupport
import Persistance

/// Fuzzes the conversions between Swift values and SQLite values: any values bound to a
/// statement read back unchanged (NaN is refused with an encoding error, as documented);
/// any stored value converts to each standard Swift type or is refused, never crashing, and a
/// converted value stores and converts back stably; date text the library parses is parsed
/// by SQLite's date functions to the same instant.

/// The connection every input runs on; libFuzzer runs inputs one at a time on one thread.
nonisolated(unsafe) private let connection = try! Connection.inMemory()

/// Checks one input: up to 16 values read from its bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValues(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, count: size)
    var values: [DatabaseValue] = []
    while !input.isAtEnd, values.count < 16 {
        values.append(input.databaseValue())
    }
    checkBinding(values)
    for value in values {
        checkConversions(of: value)
        if case .text(let text) = value { checkDateParsing(text) }
    }
    return 0
}

/// Binds `values` by position and by name to `SELECT ?, …` and reads them back.
private func checkBinding(_ values: [DatabaseValue]) {
    guard !values.isEmpty else { return }
    let positional = "SELECT " + values.indices.map { _ in "?" }.joined(separator: ", ")
    let named = "SELECT " + values.indices.map { ":v\($0)" }.joined(separator: ", ")
    let byName = Dictionary(uniqueKeysWithValues: values.enumerated().map { ("v\($0.offset)", $0.element as DatabaseValue?) })
    for (sql, arguments) in [(positional, StatementArguments(values)), (named, StatementArguments(byName))] {
        do {
            let row = try connection.fetchOne(sql, arguments)
            fuzzCheck(!values.contains(where: isNaN), "NaN was bound instead of refused")
            fuzzCheck(row?.values == values, "values changed on their way through SQLite: \(values) → \(row?.values ?? [])")
        } catch let error as DatabaseError where error.kind == .encoding {
            fuzzCheck(values.contains(where: isNaN), "encoding error for storable values \(values): \(error)")
        } catch {
            fuzzCheck(false, "binding \(values) failed: \(error)")
        }
    }
}

private func isNaN(_ value: DatabaseValue) -> Bool {
    if case .real(let real) = value { return real.isNaN }
    return false
}

/// Converts `value` to every standard type; whatever converts must store and convert back stably.
private func checkConversions(of value: DatabaseValue) {
    checkConversion(value, to: Int.self); checkConversion(value, to: Int8.self)
    checkConversion(value, to: Int16.self); checkConversion(value, to: Int32.self)
    checkConversion(value, to: Int64.self); checkConversion(value, to: UInt.self)
    checkConversion(value, to: UInt8.self); checkConversion(value, to: UInt16.self)
    checkConversion(value, to: UInt32.self); checkConversion(value, to: UInt64.self)
    checkConversion(value, to: Double.self); checkConversion(value, to: Float.self)
    checkConversion(value, to: Bool.self); checkConversion(value, to: String.self)
    checkConversion(value, to: Data.self); checkConversion(value, to: [UInt8].self)
    checkConversion(value, to: Date.self); checkConversion(value, to: UUID.self)
    checkConversion(value, to: URL.self); checkConversion(value, to: Decimal.self)
    checkConversion(value, to: Int?.self); checkConversion(value, to: String?.self)
}

/// `value` as a `T`, stored again, must read back as a `T` that stores the same way.
private func checkConversion<T: DatabaseValueConvertible>(_ value: DatabaseValue, to type: T.Type) {
    guard let converted = T.fromDatabaseValue(value) else {
        do {
            _ = try T.decode(value, column: "c")
            fuzzCheck(false, "decode(\(value)) as \(T.self) succeeded where fromDatabaseValue failed")
        } catch let error as DatabaseError {
            fuzzCheck(error.kind == .decoding && error.column == "c", "wrong decoding error \(error)")
        } catch {
            fuzzCheck(false, "decoding \(value) as \(T.self) threw \(error)")
        }
        return
    }
    guard let stored = try? converted.databaseValue else { return }  // refused with an encoding error: documented
    guard let again = T.fromDatabaseValue(stored) else {
        return fuzzCheck(false, "\(T.self) \(converted) is stored as \(stored), which does not read back as \(T.self)")
    }
    let storedAgain = try? again.databaseValue
    fuzzCheck(storedAgain == stored, "\(T.self) from \(value) stores as \(stored), then as \(String(describing: storedAgain))")
}

/// Text the library reads as a date must be read by SQLite's `julianday` as the same instant.
private func checkDateParsing(_ text: String) {
    guard let date = Date.fromDatabaseValue(.text(text)) else { return }
    do {
        let seconds = try connection.fetchOne(Double?.self, "SELECT (julianday(?) - 2440587.5) * 86400.0", [text])
        guard let seconds = seconds.flatMap({ $0 }) else {
            return fuzzCheck(false, "\"\(text)\" reads as \(date), but SQLite does not read it as a date")
        }
        fuzzCheck(abs(seconds - date.timeIntervalSince1970) < 0.002,
                  "\"\(text)\" reads as \(date.timeIntervalSince1970) s, SQLite reads \(seconds) s")
    } catch {
        fuzzCheck(false, "julianday(\"\(text)\") failed: \(error)")
    }
}
