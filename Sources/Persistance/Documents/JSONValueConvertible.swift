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

extension Int: JSONValueConvertible {
    public var jsonValue: JSONValue { .int(Int64(self)) }
}

extension Int8: JSONValueConvertible {
    public var jsonValue: JSONValue { .int(Int64(self)) }
}

extension Int16: JSONValueConvertible {
    public var jsonValue: JSONValue { .int(Int64(self)) }
}

extension Int32: JSONValueConvertible {
    public var jsonValue: JSONValue { .int(Int64(self)) }
}

extension Int64: JSONValueConvertible {
    public var jsonValue: JSONValue { .int(self) }
}

extension UInt8: JSONValueConvertible {
    public var jsonValue: JSONValue { .int(Int64(self)) }
}

extension UInt16: JSONValueConvertible {
    public var jsonValue: JSONValue { .int(Int64(self)) }
}

extension UInt32: JSONValueConvertible {
    public var jsonValue: JSONValue { .int(Int64(self)) }
}

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
