import Foundation

extension RecordValueBuffer {
    /// Sets `column` of the current record to `value`. While binding, the common column
    /// types are bound straight from the Swift value, without a `DatabaseValue` in between;
    /// the comparisons of `Value` with those types are resolved when the caller is compiled.
    @inlinable
    func set<Value: DatabaseValueConvertible>(_ value: Value, forColumn column: String) throws {
        guard let binder, Self.bindsDirectly(Value.self) else {
            return try set(value.databaseValue, forColumn: column)
        }
        let slot = try slot(for: column)
        guard slot != Self.ignoredSlot else { return }
        if slot == keptSlot { slots[slot].value = try value.databaseValue }
        let index = slot + 1
        if let text = Self.unwrap(value, as: String.self) {
            guard let text else { return try bindDefault(slot, binder) }
            markSet(slot, isNull: false)
            try binder.bind(text: text, at: index)
        } else if let integer = Self.unwrap(value, as: Int64.self) {
            guard let integer else { return try bindDefault(slot, binder) }
            markSet(slot, isNull: false)
            try binder.bind(integer: integer, at: index)
        } else if let integer = Self.unwrap(value, as: Int.self) {
            guard let integer else { return try bindDefault(slot, binder) }
            markSet(slot, isNull: false)
            try binder.bind(integer: Int64(integer), at: index)
        } else if let real = Self.unwrap(value, as: Double.self) {
            guard let real else { return try bindDefault(slot, binder) }
            markSet(slot, isNull: false)
            try binder.bind(real: real, at: index)
        } else if let blob = Self.unwrap(value, as: Data.self) {
            guard let blob else { return try bindDefault(slot, binder) }
            markSet(slot, isNull: false)
            try binder.bind(blob: blob, at: index)
        }
    }

    /// Whether `set(_:forColumn:)` binds values of `type` without a `DatabaseValue`.
    @inlinable @inline(__always)
    static func bindsDirectly(_ type: Any.Type) -> Bool {
        type == String.self || type == String?.self || type == Int64.self || type == Int64?.self
            || type == Int.self || type == Int?.self || type == Double.self || type == Double?.self
            || type == Data.self || type == Data?.self
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
