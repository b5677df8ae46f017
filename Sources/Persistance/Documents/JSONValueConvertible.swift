import Foundation

/// A Swift value that stands for a JSON value, so variables of these types compare with
/// document fields and fill `in` lists: `DocumentField("url") == url`,
/// `DocumentField("Id").in(ids)`. `Date` stands for its seconds since 1970 and `Data` for
/// its base64 text, as documents store them.
public protocol JSONValueConvertible {
    /// The JSON value this value stands for.
    var jsonValue: JSONValue { get }
}

extension JSONValue: JSONValueConvertible {
    public var jsonValue: JSONValue { self }
}

extension String: JSONValueConvertible {
    public var jsonValue: JSONValue { .string(self) }
}

extension Substring: JSONValueConvertible {
    public var jsonValue: JSONValue { .string(String(self)) }
}

extension Bool: JSONValueConvertible {
    public var jsonValue: JSONValue { .bool(self) }
}

extension JSONValueConvertible where Self: FixedWidthInteger {
    /// The integer, as JSON integers are stored (64 bits, signed).
    public var jsonValue: JSONValue { .int(Int64(self)) }
}

extension Int: JSONValueConvertible {}
extension Int8: JSONValueConvertible {}
extension Int16: JSONValueConvertible {}
extension Int32: JSONValueConvertible {}
extension Int64: JSONValueConvertible {}
extension UInt8: JSONValueConvertible {}
extension UInt16: JSONValueConvertible {}
extension UInt32: JSONValueConvertible {}

extension Double: JSONValueConvertible {
    public var jsonValue: JSONValue { .double(self) }
}

extension Float: JSONValueConvertible {
    public var jsonValue: JSONValue { .double(Double(self)) }
}

extension Date: JSONValueConvertible {
    /// Seconds since 1970, as a decimal (the unit of the `update` stamp).
    public var jsonValue: JSONValue { .double(timeIntervalSince1970) }
}

extension Data: JSONValueConvertible {
    /// The bytes as base64 text.
    public var jsonValue: JSONValue { .string(base64EncodedString()) }
}

extension Optional: JSONValueConvertible where Wrapped: JSONValueConvertible {
    /// The wrapped value's, or null.
    public var jsonValue: JSONValue { self?.jsonValue ?? .null }
}
