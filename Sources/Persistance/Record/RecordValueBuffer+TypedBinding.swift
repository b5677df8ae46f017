import Foundation

extension RecordValueBuffer {
    /// Sets `column` of the current record to `value`. While binding, the common column
    /// types are bound straight from the Swift value, without a `DatabaseValue` in between;
    /// the comparisons of `Value` with those types are resolved when the caller is compiled.
    @inlinable
    func set<Value: DatabaseValueConvertible>(_ value: Value, forColumn column: String) throws {
        guard let target, Self.bindsDirectly(Value.self) else {
            return try set(value.databaseValue, forColumn: column)
        }
        let slot = try slot(for: column)
        try target._withUnsafeGuaranteedRef { statement in
            if Value.self == String.self {
                try bind(unsafeBitCast(value, to: String.self), slot, statement, Self.bindText)
            } else if Value.self == String?.self {
                try bind(unsafeBitCast(value, to: String?.self), slot, statement, Self.bindText)
            } else if Value.self == Int64.self {
                try bind(unsafeBitCast(value, to: Int64.self), slot, statement, Self.bindInteger)
            } else if Value.self == Int64?.self {
                try bind(unsafeBitCast(value, to: Int64?.self), slot, statement, Self.bindInteger)
            } else if Value.self == Int.self {
                try bind(Int64(unsafeBitCast(value, to: Int.self)), slot, statement, Self.bindInteger)
            } else if Value.self == Int?.self {
                try bind(unsafeBitCast(value, to: Int?.self).map(Int64.init), slot, statement, Self.bindInteger)
            } else if Value.self == Double.self {
                try bind(unsafeBitCast(value, to: Double.self), slot, statement, Self.bindReal)
            } else if Value.self == Double?.self {
                try bind(unsafeBitCast(value, to: Double?.self), slot, statement, Self.bindReal)
            } else if Value.self == Data.self {
                try bind(unsafeBitCast(value, to: Data.self), slot, statement, Self.bindBlob)
            } else {
                try bind(unsafeBitCast(value, to: Data?.self), slot, statement, Self.bindBlob)
            }
        }
    }

    /// Whether `set(_:forColumn:)` binds values of `type` without a `DatabaseValue`.
    @inlinable @inline(__always)
    static func bindsDirectly(_ type: Any.Type) -> Bool {
        type == String.self || type == String?.self || type == Int64.self || type == Int64?.self
            || type == Int.self || type == Int?.self || type == Double.self || type == Double?.self
            || type == Data.self || type == Data?.self
    }

    /// Binds `value` to the parameter of `slot` with `bindValue`, or the column default
    /// (NULL without one) when it is nil, and marks the slot set (keeping the value when
    /// it is the `keptSlot`).
    @inlinable @inline(__always)
    func bind<Wrapped: DatabaseValueConvertible>(
        _ value: Wrapped?, _ slot: Int, _ statement: Statement,
        _ bindValue: (Wrapped, Int, Statement, ParameterBytes?) throws -> Void
    ) throws {
        markSet(slot, isNull: value == nil)
        if slot == keptSlot { slots[slot].value = try value?.databaseValue ?? .null }
        if let value {
            try bindValue(value, slot + 1, statement, boundBytes)
        } else if let fallback = defaults[slot] {
            try statement.bind(fallback, at: slot + 1)
        } else {
            try statement.bindNull(at: slot + 1)
        }
    }

    @inlinable @inline(__always)
    static func bindText(_ text: String, _ index: Int, _ statement: Statement, _ bytes: ParameterBytes?) throws {
        try statement.bind(text: text, at: index, keepingBytesIn: bytes)
    }

    @inlinable @inline(__always)
    static func bindInteger(_ integer: Int64, _ index: Int, _ statement: Statement, _: ParameterBytes?) throws {
        try statement.bind(integer: integer, at: index)
    }

    @inlinable @inline(__always)
    static func bindReal(_ real: Double, _ index: Int, _ statement: Statement, _: ParameterBytes?) throws {
        try statement.bind(real: real, at: index)
    }

    @inlinable @inline(__always)
    static func bindBlob(_ blob: Data, _ index: Int, _ statement: Statement, _ bytes: ParameterBytes?) throws {
        try statement.bind(blob: blob, at: index, keepingBytesIn: bytes)
    }
}
