#if PostgreSQL
import PostgresNIO

/// The decimal text of a NUMERIC in PostgreSQL's binary form, every digit kept and written as
/// `Decimal.description` writes a number (SQLite's text for a `Decimal`): no exponent, no
/// trailing zero after the point (`12.50` is `12.5`, `3.000` is `3`). NaN and the infinities
/// are `NaN`, `Infinity` and `-Infinity`.
enum PostgresNumericText {
    /// The binary form: digit count, weight (of the first digit, in powers of 10,000), sign,
    /// display scale, then the base-10,000 digits. Nil when malformed.
    static func text(of bytes: inout ByteBuffer) -> String? {
        guard let count = bytes.readInteger(as: Int16.self), count >= 0,
            let weight = bytes.readInteger(as: Int16.self),
            let sign = bytes.readInteger(as: UInt16.self),
            bytes.readInteger(as: Int16.self) != nil
        else { return nil }
        var digits = [Int]()
        for _ in 0..<count {
            guard let digit = bytes.readInteger(as: Int16.self), (0..<10_000).contains(digit) else { return nil }
            digits.append(Int(digit))
        }
        switch sign {
        case 0x0000, 0x4000: break
        case 0xC000: return "NaN"
        case 0xD000: return "Infinity"
        case 0xF000: return "-Infinity"
        default: return nil
        }
        guard !digits.isEmpty else { return "0" }
        /// The base-10,000 digit of the power `exponent`.
        func digit(_ exponent: Int) -> Int {
            let index = Int(weight) - exponent
            return digits.indices.contains(index) ? digits[index] : 0
        }
        func padded(_ digit: Int) -> String {
            let text = String(digit)
            return String(repeating: "0", count: 4 - text.count) + text
        }
        var text = weight < 0 ? "0" : String(digit(Int(weight)))
        if weight > 0 {
            for exponent in stride(from: Int(weight) - 1, through: 0, by: -1) { text += padded(digit(exponent)) }
        }
        let lowestExponent = Int(weight) - (digits.count - 1)
        if lowestExponent < 0 {
            var fraction = ""
            for exponent in stride(from: -1, through: lowestExponent, by: -1) { fraction += padded(digit(exponent)) }
            while fraction.last == "0" { fraction.removeLast() }
            if !fraction.isEmpty { text += "." + fraction }
        }
        return sign == 0x4000 && text != "0" ? "-" + text : text
    }
}
#endif
