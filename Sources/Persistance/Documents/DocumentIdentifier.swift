import Foundation

/// New document identifiers: a random UUID in its usual text form (36 characters, uppercase
/// hexadecimal digits and dashes, as `UUID().uuidString` writes it), formatted here because
/// Foundation's formatting costs more than the rest of adding a document to the cache.
enum DocumentIdentifier {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// A new random identifier.
    static func make() -> String {
        withUnsafeBytes(of: UUID().uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (offset, byte) in bytes.enumerated() {
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = hexDigits[Int(byte >> 4)]
                    text[position + 1] = hexDigits[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}
