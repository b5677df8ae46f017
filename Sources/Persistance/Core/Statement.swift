import Foundation
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// A prepared SQL statement of one connection: bind arguments, step through rows, read
/// columns, reset and reuse.
///
/// Column indexes start at 0; parameter indexes start at 1, as in SQLite. A statement
/// belongs to its connection's thread of use and is finalized when the connection closes.
public final class Statement {
    /// The SQL text of this statement.
    public let sql: String
    /// The number of columns in each result row (0 for statements that return none).
    public let columnCount: Int
    /// The number of parameters (`?`, `:name`, …) the statement takes.
    public let parameterCount: Int

    /// Used only while `handle` is set: closing the connection (which its deinit does)
    /// finalizes its statements first, so a live handle means a live connection and the
    /// reference needs no run-time check.
    @usableFromInline unowned(unsafe) let connection: Connection
    /// Nil once finalized. Read on every call and written only by `finalize()`, never during
    /// a read, so it opts out of run-time exclusivity checks.
    @exclusivity(unchecked) @usableFromInline private(set) var handle: OpaquePointer?
    // Like the connection's state, the properties below are used on the connection's thread
    // only, so they opt out of run-time exclusivity checks.
    /// Whether a cursor is currently stepping this statement (so the cache must not hand it out).
    @exclusivity(unchecked) var isCursorOpen = false
    /// When the connection's statement cache last handed the statement out (its LRU clock).
    @exclusivity(unchecked) var cacheLastUse: UInt64 = 0
    @exclusivity(unchecked) private var cachedColumns: RowColumns?
    /// The column positions a record decoder found for a record type, kept for its next use.
    @exclusivity(unchecked) @usableFromInline var cachedPositions: (recordType: ObjectIdentifier, positions: [Int])?
    @exclusivity(unchecked) private var cachedParameterNames: [String?]?
    /// What the statement does to savepoints, if it opens, releases or rolls back to one.
    private let savepointCommand: SavepointCommand?
    /// Whether `savepointCommand` is set: the one check that finishing a step costs.
    @usableFromInline let changesSavepoints: Bool

    init(connection: Connection, handle: OpaquePointer) {
        self.connection = connection
        self.handle = handle
        self.sql = String(cString: sqlite3_sql(handle))
        self.savepointCommand = SavepointCommand(sql: sql)
        self.changesSavepoints = savepointCommand != nil
        self.columnCount = Int(sqlite3_column_count(handle))
        self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
        connection.register(self)
    }

    deinit {
        if let handle {
            connection.changeRecorder?.statementWillFinalize(handle)
            sqlite3_finalize(handle)
            connection.unregister(self)
        }
    }

    /// Finalizes the statement; every later use throws. Called by the connection on close.
    func finalize() {
        guard let handle else { return }
        connection.changeRecorder?.statementWillFinalize(handle)
        sqlite3_finalize(handle)
        self.handle = nil
    }

    @inlinable @inline(__always)
    func liveHandle() throws -> OpaquePointer {
        guard let handle else { throw usedAfterClose() }
        return handle
    }

    @usableFromInline
    func usedAfterClose() -> DatabaseError {
        DatabaseError.misuse("statement used after its connection was closed", sql: sql)
    }

    @usableFromInline
    func usedAfterTransaction() -> DatabaseError {
        DatabaseError.misuse("a cursor was used after the transaction (or database block) it was opened in ended", sql: sql)
    }

    // MARK: Columns

    /// The names of the result columns, in order.
    public var columnNames: [String] { columns.names }

    var columns: RowColumns {
        if let cachedColumns { return cachedColumns }
        let names = (0..<Int32(columnCount)).map { index -> String in
            guard let handle, let name = sqlite3_column_name(handle, index) else { return "" }
            return String(cString: name)
        }
        let columns = RowColumns(names: names)
        cachedColumns = columns
        return columns
    }

    /// The positions `find` returns for `recordType`, found once and kept while the
    /// statement is reused for that type.
    @inlinable
    func columnPositions(for recordType: Any.Type, _ find: () throws -> [Int]) rethrows -> [Int] {
        let key = ObjectIdentifier(recordType)
        if let cachedPositions, cachedPositions.recordType == key { return cachedPositions.positions }
        let positions = try find()
        cachedPositions = (key, positions)
        return positions
    }

    /// The index of the first result column with this name (ASCII case-insensitive), if any.
    public func columnIndex(named name: String) -> Int? {
        columns.index(of: name)
    }

    // MARK: Binding

    /// Binds all parameters at once: positional arguments must match the parameter count,
    /// named arguments must name exactly the statement's parameters.
    public func bind(_ arguments: StatementArguments) throws {
        if let failure = arguments.conversionError {
            throw DatabaseError(kind: .encoding, message: failure, sql: sql)
        }
        switch arguments.storage {
        case .positional(let values):
            guard values.count == parameterCount else {
                throw DatabaseError(
                    kind: .invalidArguments,
                    message: "statement takes \(parameterCount) argument(s), \(values.count) given", sql: sql)
            }
            for (offset, value) in values.enumerated() {
                try bind(value, at: offset + 1)
            }
        case .named(let values):
            let names = parameterNames
            for (offset, name) in names.enumerated() {
                guard let name, let value = values[name] else {
                    let label = name.map { ":\($0)" } ?? "?\(offset + 1)"
                    throw DatabaseError(kind: .invalidArguments, message: "no argument for parameter \(label)", sql: sql)
                }
                try bind(value, at: offset + 1)
            }
            let known = Set(names.compactMap { $0 })
            if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
                throw DatabaseError(
                    kind: .invalidArguments, message: "statement has no parameter named \"\(unknown)\"", sql: sql)
            }
        }
    }

    /// The parameter names without their prefix, in parameter order; nil for `?` parameters.
    var parameterNames: [String?] {
        if let cachedParameterNames { return cachedParameterNames }
        let names = (0..<Int32(parameterCount)).map { offset -> String? in
            guard let handle, let name = sqlite3_bind_parameter_name(handle, offset + 1) else { return nil }
            let text = String(cString: name)
            return text.hasPrefix("?") ? nil : StatementArguments.bareName(text)
        }
        cachedParameterNames = names
        return names
    }

    /// Binds one value to the parameter at `index` (1-based).
    @inlinable
    public func bind(_ value: some DatabaseValueConvertible, at index: Int) throws {
        try bind(value.databaseValue, at: index)
    }

    /// Binds one stored value to the parameter at `index` (1-based).
    @inlinable
    public func bind(_ value: DatabaseValue, at index: Int) throws {
        try ParameterBinder(self).bind(value, at: index)
    }

    @usableFromInline
    func nanRefused() -> DatabaseError {
        DatabaseError(kind: .encoding, message: "NaN cannot be stored: SQLite turns it into NULL", sql: sql)
    }

    @usableFromInline
    func bindingFailed(_ code: Int32) -> DatabaseError {
        connection.lastError(code: code, sql: sql)
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        if let handle { sqlite3_clear_bindings(handle) }
    }

    // MARK: Stepping

    /// Advances to the next row: true when a row is available, false when the statement is done.
    /// On failure the statement is reset, so it can be reused.
    @inlinable @discardableResult
    public func step() throws -> Bool {
        try step(inTransaction: nil)
    }

    /// Advances like `step()`, after checking that the connection's top-level transaction is
    /// still the one whose serial is `transaction` (a cursor's): a misuse error once it ended.
    @inlinable @inline(__always)
    func step(inTransaction transaction: UInt64?) throws -> Bool {
        let handle = try liveHandle()
        // The connection outlives a live handle (see `connection`), so it is borrowed
        // without the retain and release a plain use would cost on every row.
        try Unmanaged.passUnretained(connection)._withUnsafeGuaranteedRef { connection in
            try connection.checkAccess()
            if let transaction, transaction != connection.transactionSerial { throw usedAfterTransaction() }
        }
        return try stepHandle(handle)
    }

    /// Steps to the row after the current one, without checking the connection's thread
    /// again: for a loop that checked it at its first step and runs inside one call.
    @inlinable @inline(__always)
    func stepToNextRow() throws -> Bool {
        try stepHandle(try liveHandle())
    }

    /// Steps to the end, collecting the record `decoder` reads from each row: the loop of the
    /// one-shot fetches, which checks the connection once, at the first step. Room for
    /// `expectedCount` records is reserved at the first row (a query's small `LIMIT`), so
    /// the array does not grow record by record.
    @inlinable @inline(__always)
    func collectRecords<Decoder: RecordDecoder>(_ decoder: Decoder, expectedCount: Int = 0) throws -> [Decoder.Element] {
        var records = [Decoder.Element]()
        guard try step() else { return records }
        if expectedCount > 1 { records.reserveCapacity(expectedCount) }
        repeat {
            records.append(try decoder.decode(self))
        } while try stepToNextRow()
        return records
    }

    @inlinable @inline(__always)
    func stepHandle(_ handle: OpaquePointer) throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE {
            if changesSavepoints { savepointCommandRan() }
            return false
        }
        let error = connection.lastError(code: code, sql: sql)
        sqlite3_reset(handle)
        connection.statementFailed(handle, error)
        throw error
    }

    /// Tells the connection's change recorder, if any, that this savepoint command ran.
    @usableFromInline
    func savepointCommandRan() {
        if let savepointCommand { connection.changeRecorder?.follow(savepointCommand) }
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    @inlinable
    public func reset() {
        if let handle { sqlite3_reset(handle) }
    }

    /// Binds `arguments`, runs the statement to completion and resets it.
    public func execute(_ arguments: StatementArguments = StatementArguments()) throws {
        try bind(arguments)
        defer { reset() }
        while try step() {}
    }

    // MARK: Reading the current row

    /// The value of column `index` (0-based) in the current row. TEXT that is not valid
    /// UTF-8 is returned as a BLOB of its bytes, so nothing is lost or silently repaired.
    @inlinable
    public func column(at index: Int) -> DatabaseValue {
        guard let value = columnValue(at: index) else { return .null }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            return .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            // Text that is not valid UTF-8 keeps its bytes, rather than being repaired.
            return Self.text(of: value).map(DatabaseValue.text) ?? .blob(Self.bytes(of: value))
        case SQLITE_BLOB:
            return .blob(Self.bytes(of: value))
        default:
            return .null
        }
    }

    /// The value of column `index` converted to `T`; a mismatch or unexpected NULL throws a
    /// decoding error naming the column.
    public func value<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self) throws -> T {
        guard index >= 0, index < columnCount else {
            throw DatabaseError(kind: .columnNotFound, message: "no column at index \(index)", sql: sql)
        }
        return try T.decode(column(at: index), column: columnNames[index])
    }

    /// The value of the column named `name` converted to `T`.
    public func value<T: DatabaseValueConvertible>(named name: String, as type: T.Type = T.self) throws -> T {
        guard let index = columnIndex(named: name) else {
            throw DatabaseError(kind: .columnNotFound, message: "no column named \"\(name)\"", sql: sql)
        }
        return try T.decode(column(at: index), column: columnNames[index])
    }

    // Direct column readers for hand-written record decoding: no conversion, no checks
    // beyond SQLite's own (a NULL reads as 0, 0.0 or an empty string; test `isNull(at:)` first).

    /// Whether column `index` of the current row is NULL.
    @inlinable @inline(__always)
    public func isNull(at index: Int) -> Bool {
        guard let handle else { return true }
        return sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// Column `index` as a 64-bit integer, converted by SQLite.
    @inlinable @inline(__always)
    public func int64(at index: Int) -> Int64 {
        guard let handle else { return 0 }
        return sqlite3_column_int64(handle, Int32(index))
    }

    /// Column `index` as a double, converted by SQLite.
    @inlinable @inline(__always)
    public func double(at index: Int) -> Double {
        guard let handle else { return 0 }
        return sqlite3_column_double(handle, Int32(index))
    }

    /// Column `index` as UTF-8 text, converted by SQLite. Bytes that are not valid UTF-8
    /// are replaced with U+FFFD; `value(at:as:)` throws a decoding error for them instead.
    @inlinable @inline(__always)
    public func string(at index: Int) -> String {
        guard let value = columnValue(at: index), let start = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes, converted by SQLite.
    @inlinable @inline(__always)
    public func data(at index: Int) -> Data {
        guard let value = columnValue(at: index) else { return Data() }
        return Self.bytes(of: value)
    }

    /// Column `index` of the current row as SQLite's value object, for reading it with the
    /// `sqlite3_value_*` functions: one column look-up however many of those follow, where
    /// each `sqlite3_column_*` call looks the column up again. The value is SQLite's
    /// "unprotected" kind, which is safe here because the connection is used by one
    /// thread at a time; it is valid until the statement steps, resets or is finalized.
    @inlinable @inline(__always)
    func columnValue(at index: Int) -> OpaquePointer? {
        guard let handle else { return nil }
        return sqlite3_column_value(handle, Int32(index))
    }

    /// Column `index` as a `T` when its storage class is `T`'s own: TEXT for `String`,
    /// INTEGER for `Int64`, `Int` and `Bool`, REAL for `Double`, BLOB for `Data`. Nil for any
    /// other type or storage class, which the caller converts through `DatabaseValue`.
    /// The comparisons of `T` are resolved when the caller is specialized.
    @inlinable @inline(__always)
    func exactValue<T>(_ type: T.Type, at index: Int) -> T? {
        guard let value = columnValue(at: index) else { return nil }
        return Self.exactValue(T.self, of: value, storageClass: sqlite3_value_type(value))
    }

    /// Like `exactValue(_:at:)`, telling NULL apart: `.some(nil)` for NULL, nil for a value
    /// that is not exactly a `T`. One column look-up for both answers.
    @inlinable @inline(__always)
    func exactValueOrNull<T>(_ type: T.Type, at index: Int) -> T?? {
        guard let value = columnValue(at: index) else { return .some(nil) }
        let storageClass = sqlite3_value_type(value)
        if storageClass == SQLITE_NULL { return .some(nil) }
        return Self.exactValue(T.self, of: value, storageClass: storageClass).map { .some($0) }
    }

    /// `value` as a `T` when `storageClass`, its storage class, is `T`'s own (see `exactValue(_:at:)`).
    @inlinable @inline(__always)
    static func exactValue<T>(_ type: T.Type, of value: OpaquePointer, storageClass: Int32) -> T? {
        if T.self == String.self {
            guard storageClass == SQLITE_TEXT, let text = text(of: value) else { return nil }
            return unsafeBitCast(text, to: T.self)
        } else if T.self == Int64.self {
            return storageClass == SQLITE_INTEGER ? unsafeBitCast(sqlite3_value_int64(value), to: T.self) : nil
        } else if T.self == Int.self {
            guard storageClass == SQLITE_INTEGER, let integer = Int(exactly: sqlite3_value_int64(value)) else {
                return nil
            }
            return unsafeBitCast(integer, to: T.self)
        } else if T.self == Bool.self {
            return storageClass == SQLITE_INTEGER ? unsafeBitCast(sqlite3_value_int64(value) != 0, to: T.self) : nil
        } else if T.self == Double.self {
            return storageClass == SQLITE_FLOAT ? unsafeBitCast(sqlite3_value_double(value), to: T.self) : nil
        } else if T.self == Data.self {
            return storageClass == SQLITE_BLOB ? unsafeBitCast(bytes(of: value), to: T.self) : nil
        }
        return nil
    }

    /// The text of a column value, or nil when its bytes are not valid UTF-8.
    ///
    /// Decoding replaces invalid bytes with U+FFFD, so the text is exact when its bytes are
    /// the stored ones. (Comparing them costs far less than `String(validating:as:)`.)
    @inlinable @inline(__always)
    static func text(of value: OpaquePointer) -> String? {
        guard let start = sqlite3_value_text(value) else { return "" }
        let bytes = UnsafeBufferPointer(start: start, count: Int(sqlite3_value_bytes(value)))
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count == bytes.count else { return nil }
        let isExact = text.utf8.withContiguousStorageIfAvailable { decoded in
            bytes.isEmpty || memcmp(decoded.baseAddress!, start, bytes.count) == 0
        }
        return (isExact ?? text.utf8.elementsEqual(bytes)) ? text : nil
    }

    /// The bytes of a column value (a text's UTF-8 bytes, as stored).
    @inlinable @inline(__always)
    static func bytes(of value: OpaquePointer) -> Data {
        guard let start = sqlite3_value_blob(value) else { return Data() }
        let count = Int(sqlite3_value_bytes(value))
        return count > 0 ? Data(bytes: start, count: count) : Data()
    }
}

@available(*, unavailable, message: "A statement belongs to its connection's thread of use")
extension Statement: Sendable {}
