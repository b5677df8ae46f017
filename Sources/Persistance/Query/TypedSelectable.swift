/// A result column whose values have a known Swift type: a typed column, or a typed
/// expression such as an aggregate. A typed `select` of these fetches tuples of their values.
public protocol TypedSelectable: SQLSelectable {
    /// The Swift type of the result column's values.
    associatedtype Value: DatabaseValueConvertible
}

extension TypedColumn: TypedSelectable where Value: DatabaseValueConvertible {}
