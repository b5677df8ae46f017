import Foundation
import Persistance

/// Reads structured values from the fuzzer's bytes, front to back. Running out of bytes
/// is not an error: every read then returns a zero-like value, so any input is usable.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    public init(_ start: UnsafePointer<UInt8>, count: Int) {
        bytes = Array(UnsafeBufferPointer(start: start, count: count))
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { position >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next `count` bytes (fewer at the end of the input).
    public mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + count)
        defer { position = max(position, end) }
        return position < end ? Array(bytes[position..<end]) : []
    }

    /// 8 bytes, little-endian.
    public mutating func uint64() -> UInt64 {
        bytes(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    /// A length-prefixed run of bytes (at most 255).
    public mutating func chunk() -> [UInt8] {
        bytes(Int(byte()))
    }

    /// A string of a length-prefixed run of bytes; invalid UTF-8 is repaired.
    public mutating func string() -> String {
        String(decoding: chunk(), as: UTF8.self)
    }

    /// A value of any storage class, with extremes and special doubles well represented.
    public mutating func databaseValue() -> DatabaseValue {
        switch byte() % 5 {
        case 0: .null
        case 1: .integer(Int64(bitPattern: uint64()))
        case 2: .real(Double(bitPattern: uint64()))
        case 3: .text(string())
        default: .blob(Data(chunk()))
        }
    }
}
