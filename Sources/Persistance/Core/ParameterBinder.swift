import Foundation
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// Binds values to the parameters of one live statement: the only place that calls
/// SQLite's `sqlite3_bind_*` functions.
///
/// With `bytes`, text and blobs are copied into that memory and bound in place; without,
/// SQLite copies them. A plain value (a handle and two pointers), so binding retains nothing.
@usableFromInline
struct ParameterBinder {
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let bytes: ParameterBytes?
    /// For the error of a failed bind; the binder's user keeps the statement alive.
    @usableFromInline let statement: Unmanaged<Statement>

    /// A binder for `statement`; throws when it was finalized.
    @inlinable
    init(_ statement: Statement, keepingBytesIn bytes: ParameterBytes? = nil) throws {
        handle = try statement.liveHandle()
        self.bytes = bytes
        self.statement = Unmanaged.passUnretained(statement)
    }

    /// Binds `value` to the parameter at `index` (1-based).
    @inlinable
    func bind(_ value: DatabaseValue, at index: Int) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer: integer, at: index)
        case .real(let real): try bind(real: real, at: index)
        case .text(let text): try bind(text: text, at: index)
        case .blob(let data): try bind(blob: data, at: index)
        }
    }

    /// Binds a column's `defaultValue` in place of NULL, or NULL when it has none.
    @inlinable @inline(__always)
    func bind(default defaultValue: DatabaseValue?, at index: Int) throws {
        guard let defaultValue else { return try bindNull(at: index) }
        try bind(defaultValue, at: index)
    }

    @inlinable @inline(__always)
    func bindNull(at index: Int) throws {
        try check(sqlite3_bind_null(handle, Int32(index)))
    }

    @inlinable @inline(__always)
    func bind(integer: Int64, at index: Int) throws {
        try check(sqlite3_bind_int64(handle, Int32(index), integer))
    }

    /// Binds `real`; NaN is refused, since SQLite would store it as NULL.
    @inlinable @inline(__always)
    func bind(real: Double, at index: Int) throws {
        guard !real.isNaN else { throw statement.takeUnretainedValue().nanRefused() }
        try check(sqlite3_bind_double(handle, Int32(index), real))
    }

    /// Binds `text`, read in place when its UTF-8 is contiguous (a native string's is), so
    /// the string is not copied.
    @inlinable @inline(__always)
    func bind(text: String, at index: Int) throws {
        if let code = text.utf8.withContiguousStorageIfAvailable({ bindText($0, at: index) }) {
            return try check(code)
        }
        var text = text
        try check(text.withUTF8 { bindText($0, at: index) })
    }

    @inlinable @inline(__always)
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int32 {
        // An empty buffer may have no address; SQLite would then bind NULL instead of ''.
        guard bytes.count > 0 else {
            return sqlite3_bind_text64(handle, Int32(index), Self.emptyText, 0, nil, UInt8(SQLITE_UTF8))
        }
        let (start, destructor) = place(UnsafeRawBufferPointer(bytes), index)
        return sqlite3_bind_text64(
            handle, Int32(index), start.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count),
            destructor, UInt8(SQLITE_UTF8))
    }

    @inlinable @inline(__always)
    func bind(blob: Data, at index: Int) throws {
        try check(blob.withUnsafeBytes { bytes in
            // An empty blob bound by pointer would become NULL; a zero-length zeroblob stays a blob.
            guard bytes.count > 0 else { return sqlite3_bind_zeroblob(handle, Int32(index), 0) }
            let (start, destructor) = place(bytes, index)
            return sqlite3_bind_blob64(handle, Int32(index), start, sqlite3_uint64(bytes.count), destructor)
        })
    }

    /// Where the non-empty `bytes` of parameter `index` are bound from, and who copies them:
    /// a copy in `bytes` that SQLite uses in place, or the caller's bytes, which SQLite copies.
    @inlinable @inline(__always)
    func place(_ bytes: UnsafeRawBufferPointer, _ index: Int) -> (UnsafeRawPointer, sqlite3_destructor_type?) {
        guard let storage = self.bytes else { return (bytes.baseAddress.unsafelyUnwrapped, sqliteTransient) }
        return (storage.copy(bytes, parameter: index), nil)
    }

    /// A NUL-terminated empty string that lives as long as the program.
    @inlinable
    static var emptyText: UnsafePointer<CChar> {
        let text: StaticString = ""
        return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Throws the connection's error unless `code`, a binding's result, is `SQLITE_OK`.
    @inlinable @inline(__always)
    func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw statement.takeUnretainedValue().bindingFailed(code) }
    }
}
