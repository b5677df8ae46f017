/// A result column whose values have a known Swift type: a typed column, or a typed
/// expression such as an aggregate. A typed `select` of these fetches tuples of their values,
/// of type `Value`.
public protocol TypedSelectable: SQLSelectable, RowSelectable where Value: DatabaseValueConvertible {}

extension TypedColumn: TypedSelectable where Value: DatabaseValueConvertible {}
