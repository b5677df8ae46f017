import Foundation

/// Formats and parses the UTC date text SQLite's date functions use
/// (`yyyy-MM-dd HH:mm:ss.SSS`), without `DateFormatter`: fast, locale-free and thread-safe.
enum SQLiteDateFormat {
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The text for `date`, rounded to the millisecond; nil outside the years 0000–9999.
    static func string(from date: Date) -> String? {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return nil }
        let total = Int64(milliseconds)
        let days = total.floorDivided(by: millisecondsPerDay)
        var rest = total - days * millisecondsPerDay
        let (year, month, day) = civilDate(fromDaysSince1970: days)
        guard (0...9999).contains(year) else { return nil }
        let millisecond = rest % 1000; rest /= 1000
        let second = rest % 60; rest /= 60
        let minute = rest % 60
        let hour = rest / 60

        // Written straight into the string's storage: one allocation.
        return String(unsafeUninitializedCapacity: 23) { bytes in
            var position = 0
            func appendDigits(of value: Int64, _ digits: Int) {
                var divisor: Int64 = 1
                for _ in 1..<digits { divisor *= 10 }
                var value = value
                while divisor > 0 {
                    bytes[position] = UInt8(ascii: "0") + UInt8(value / divisor)
                    position += 1
                    value %= divisor
                    divisor /= 10
                }
            }
            func appendCharacter(_ separator: Unicode.Scalar) {
                bytes[position] = UInt8(ascii: separator)
                position += 1
            }
            appendDigits(of: year, 4); appendCharacter("-")
            appendDigits(of: month, 2); appendCharacter("-")
            appendDigits(of: day, 2); appendCharacter(" ")
            appendDigits(of: hour, 2); appendCharacter(":")
            appendDigits(of: minute, 2); appendCharacter(":")
            appendDigits(of: second, 2); appendCharacter(".")
            appendDigits(of: millisecond, 3)
            return position
        }
    }

    /// Parses `yyyy-MM-dd[( |T)HH:mm[:ss[.fraction]]][Z|±HH:MM]`; nil for anything else.
    static func date(from text: String) -> Date? {
        // Read in place (a native string's UTF-8 is contiguous already).
        var text = text
        return text.withUTF8 { date(fromUTF8: $0) }
    }

    private static func date(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = Scanner(bytes: bytes)
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), (1...12).contains(month), scanner.skip("-"),
              let day = scanner.number(digits: 2), (1...31).contains(day)
        else { return nil }
        var seconds = Double(daysSince1970(year: year, month: month, day: day) * 86_400)
        if scanner.skip(" ") || scanner.skip("T") {
            guard let hour = scanner.number(digits: 2), hour < 24, scanner.skip(":"),
                  let minute = scanner.number(digits: 2), minute < 60
            else { return nil }
            seconds += Double(hour * 3600 + minute * 60)
            if scanner.skip(":") {
                guard let second = scanner.number(digits: 2), second < 60 else { return nil }
                seconds += Double(second)
                if scanner.skip(".") {
                    guard let fraction = scanner.fraction() else { return nil }
                    seconds += fraction
                }
            }
            if scanner.skip("Z") {
                // UTC
            } else if let sign = scanner.sign() {
                // SQLite's limits: offsets up to 14:59.
                guard let offsetHour = scanner.number(digits: 2), offsetHour <= 14, scanner.skip(":"),
                      let offsetMinute = scanner.number(digits: 2), offsetMinute < 60
                else { return nil }
                seconds -= Double(sign * (offsetHour * 3600 + offsetMinute * 60))
            }
        }
        guard scanner.isAtEnd else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a day number.
    private static func civilDate(fromDaysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Howard Hinnant's `days_from_civil`: the day number of a proleptic Gregorian date.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func number(digits: Int) -> Int? {
            guard position + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += digits
            return value
        }

        mutating func fraction() -> Double? {
            var digits: Int64 = 0
            var divisor = 1.0
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                if divisor < 1e15 {
                    digits = digits * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
                    divisor *= 10
                }
                position += 1
            }
            return position > start ? Double(digits) / divisor : nil
        }

        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
