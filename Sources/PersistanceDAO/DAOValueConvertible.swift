import Foundation
import Persistance

/// A Swift value that can be passed to a DAO method. Typed DAO interfaces convert their
/// arguments with it. (Every conversion is declared `throws`, as records' is, so generated
/// code can call it the same way for every type.)
///
/// Numbers, strings, `Data`, `Bool`, optionals, arrays and string-keyed dictionaries of
/// convertible values conform. A record type conforms by declaring ``DAORecord``, which
/// also makes it a result type:
/// ```swift
/// struct MessageModel: DAORecord { … }
/// ```
public protocol DAOValueConvertible {
    /// The value handed to the module.
    func daoValue() throws -> DAOValue
}

extension DAOValueConvertible where Self: Record & Encodable {
    /// A record passes its coded properties, under its type name.
    public func daoValue() throws -> DAOValue { try DAOValue(record: self) }
}

extension DAOValue: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { self }
}

extension DatabaseValue: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { DAOValue(databaseValue: self) }
}

extension Int: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .integer(Int64(self)) }
}

extension Int32: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .integer(Int64(self)) }
}

extension Int64: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .integer(self) }
}

extension Double: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .real(self) }
}

extension Bool: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .integer(self ? 1 : 0) }
}

extension String: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .text(self) }
}

extension Data: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .blob(self) }
}

extension Optional: DAOValueConvertible where Wrapped: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { try self?.daoValue() ?? .null }
}

extension Array: DAOValueConvertible where Element: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .list(try map { try $0.daoValue() }) }
}

extension Set: DAOValueConvertible where Element: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .list(try map { try $0.daoValue() }) }
}

extension Dictionary: DAOValueConvertible where Key == String, Value: DAOValueConvertible {
    public func daoValue() throws -> DAOValue { .dictionary(try mapValues { try $0.daoValue() }) }
}
