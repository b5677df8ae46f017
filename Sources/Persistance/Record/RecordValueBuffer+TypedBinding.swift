import Foundation

extension RecordValueBuffer {
    /// Sets `column` of the current record to `value`. Text, integers, real numbers and
    /// blobs (optional or not) go to the typed setters below, which bind them straight from
    /// the Swift value while binding; the comparisons of `Value` with those types are
    /// resolved when the caller is compiled. Any other value is set as its `DatabaseValue`.
    @inlinable
    func set<Value: DatabaseValueConvertible>(_ value: Value, forColumn column: String) throws {
        if let text = Self.unwrap(value, as: String.self) {
            try set(text: text, forColumn: column)
        } else if let integer = Self.unwrap(value, as: Int64.self) {
            try set(integer: integer, forColumn: column)
        } else if let integer = Self.unwrap(value, as: Int.self) {
            try set(integer: integer.map(Int64.init), forColumn: column)
        } else if let real = Self.unwrap(value, as: Double.self) {
            try set(real: real, forColumn: column)
        } else if let blob = Self.unwrap(value, as: Data.self) {
            try set(blob: blob, forColumn: column)
        } else {
            try set(value.databaseValue, forColumn: column)
        }
    }

    /// Sets `column` to `text`, nil meaning NULL (the column default, when binding).
    @usableFromInline
    func set(text: String?, forColumn column: String) throws {
        try set(text: text, atSlot: slot(for: column))
    }

    /// Sets `column` to `integer`, nil meaning NULL (the column default, when binding).
    @usableFromInline
    func set(integer: Int64?, forColumn column: String) throws {
        try set(integer: integer, atSlot: slot(for: column))
    }

    /// Sets `column` to `real`, nil meaning NULL (the column default, when binding); NaN is refused.
    @usableFromInline
    func set(real: Double?, forColumn column: String) throws {
        try set(real: real, atSlot: slot(for: column))
    }

    /// Sets `column` to `blob`, nil meaning NULL (the column default, when binding).
    @usableFromInline
    func set(blob: Data?, forColumn column: String) throws {
        try set(blob: blob, atSlot: slot(for: column))
    }

    /// Sets slot `slot` (from `slot(for:)`) to `text`, as `set(text:forColumn:)` does.
    func set(text: String?, atSlot slot: Int) throws {
        try set(text, atSlot: slot) { try $0.bind(text: $1, at: $2) }
    }

    /// Sets slot `slot` (from `slot(for:)`) to `integer`, as `set(integer:forColumn:)` does.
    func set(integer: Int64?, atSlot slot: Int) throws {
        try set(integer, atSlot: slot) { try $0.bind(integer: $1, at: $2) }
    }

    /// Sets slot `slot` (from `slot(for:)`) to `real`, as `set(real:forColumn:)` does.
    func set(real: Double?, atSlot slot: Int) throws {
        try set(real, atSlot: slot) { try $0.bind(real: $1, at: $2) }
    }

    /// Sets slot `slot` (from `slot(for:)`) to `blob`, as `set(blob:forColumn:)` does.
    func set(blob: Data?, atSlot slot: Int) throws {
        try set(blob, atSlot: slot) { try $0.bind(blob: $1, at: $2) }
    }

    /// Sets slot `slot` to `value`, nil meaning NULL: while binding, marks the slot set and
    /// binds it with `bind` (a NULL is replaced by the column default, or NULL). The
    /// uncommon cases take `setUncommonly`, out of the way of the common one.
    @inline(__always)
    private func set<Value: DatabaseValueConvertible>(
        _ value: Value?, atSlot slot: Int, bind: (ParameterBinder, Value, Int) throws -> Void
    ) throws {
        guard _fastPath(binder != nil && slot != Self.ignoredSlot && slot != keptSlot) else {
            return try setUncommonly(value, atSlot: slot, bind: bind)
        }
        guard let value else { return try bindDefault(slot, binder.unsafelyUnwrapped) }
        markSet(slot, isNull: false)
        try bind(binder.unsafelyUnwrapped, value, slot + 1)
    }

    /// `set(_:atSlot:bind:)` when not binding (the value is kept as a `DatabaseValue`), for a
    /// column the table ignores, and for the slot the operation reads back (kept as well).
    @inline(never)
    private func setUncommonly<Value: DatabaseValueConvertible>(
        _ value: Value?, atSlot slot: Int, bind: (ParameterBinder, Value, Int) throws -> Void
    ) throws {
        guard let binder else { return try set(value.databaseValue, atSlot: slot) }
        guard slot != Self.ignoredSlot else { return }
        slots[slot].value = try value.databaseValue
        guard let value else { return try bindDefault(slot, binder) }
        markSet(slot, isNull: false)
        try bind(binder, value, slot + 1)
    }

    /// `value` as a `T?` when `Value` is `T` or `T?`; nil when it is neither.
    @inlinable @inline(__always)
    static func unwrap<Value, T>(_ value: Value, as type: T.Type) -> T?? {
        if Value.self == T.self { return .some(unsafeBitCast(value, to: T.self)) }
        if Value.self == T?.self { return .some(unsafeBitCast(value, to: T?.self)) }
        return nil
    }

    /// Marks `slot` set to NULL and binds the column default (or NULL) in its place.
    @inlinable
    func bindDefault(_ slot: Int, _ binder: ParameterBinder) throws {
        markSet(slot, isNull: true)
        try binder.bind(default: defaults[slot], at: slot + 1)
    }
}
