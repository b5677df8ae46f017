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
        guard let binder else { return try set(text.databaseValue, forColumn: column) }
        guard let slot = try slotToBind(column, binder, isNull: text == nil, keeping: text.databaseValue) else {
            return
        }
        if let text { try binder.bind(text: text, at: slot + 1) }
    }

    /// Sets `column` to `integer`, nil meaning NULL (the column default, when binding).
    @usableFromInline
    func set(integer: Int64?, forColumn column: String) throws {
        guard let binder else { return try set(integer.databaseValue, forColumn: column) }
        guard let slot = try slotToBind(column, binder, isNull: integer == nil, keeping: integer.databaseValue) else {
            return
        }
        if let integer { try binder.bind(integer: integer, at: slot + 1) }
    }

    /// Sets `column` to `real`, nil meaning NULL (the column default, when binding); NaN is refused.
    @usableFromInline
    func set(real: Double?, forColumn column: String) throws {
        guard let binder else { return try set(real.databaseValue, forColumn: column) }
        guard let slot = try slotToBind(column, binder, isNull: real == nil, keeping: try real.databaseValue) else {
            return
        }
        if let real { try binder.bind(real: real, at: slot + 1) }
    }

    /// Sets `column` to `blob`, nil meaning NULL (the column default, when binding).
    @usableFromInline
    func set(blob: Data?, forColumn column: String) throws {
        guard let binder else { return try set(blob.databaseValue, forColumn: column) }
        guard let slot = try slotToBind(column, binder, isNull: blob == nil, keeping: blob.databaseValue) else {
            return
        }
        if let blob { try binder.bind(blob: blob, at: slot + 1) }
    }

    /// While binding: the slot of `column`, marked set, whose value the caller binds; nil
    /// when the table ignores the column, or when the value is NULL, whose column default
    /// (or NULL) it binds. Keeps the value when the operation reads the slot back.
    @inline(__always)
    private func slotToBind(
        _ column: String, _ binder: ParameterBinder, isNull: Bool,
        keeping value: @autoclosure () throws -> DatabaseValue
    ) throws -> Int? {
        let slot = try slot(for: column)
        guard slot != Self.ignoredSlot else { return nil }
        if slot == keptSlot { slots[slot].value = try value() }
        if isNull {
            try bindDefault(slot, binder)
            return nil
        }
        markSet(slot, isNull: false)
        return slot
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
