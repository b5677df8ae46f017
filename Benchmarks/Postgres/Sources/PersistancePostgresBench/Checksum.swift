import Foundation

/// A checksum of rows that does not depend on their order: the number of rows and the
/// wrapping sum of a hash of every field of each. Computed after the clock stops.
struct Checksum: Equatable, CustomStringConvertible {
    private(set) var rows = 0
    private(set) var sum: UInt64 = 0

    init() {}

    init(_ items: some Sequence<BenchItem>) {
        for item in items { add(item) }
    }

    mutating func add(_ item: BenchItem) {
        var hash = FNV1a()
        hash.add(UInt64(bitPattern: item.id))
        hash.add(item.name.utf8)
        hash.add(item.score.bitPattern)
        hash.add(UInt64(bitPattern: Int64((item.created.timeIntervalSince1970 * 1_000_000).rounded())))
        hash.add(item.payload)
        rows += 1
        sum &+= hash.value
    }

    var description: String { "\(rows) rows, sum \(String(sum, radix: 16))" }
}

/// The 64-bit FNV-1a hash.
private struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
        }
    }

    mutating func add(_ word: UInt64) {
        withUnsafeBytes(of: word.littleEndian) { add($0) }
    }
}
