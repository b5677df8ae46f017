import Foundation

/// One token of a statement, as `SQLScanner` reads it.
struct SQLToken {
    enum Kind {
        /// A keyword or bare name.
        case word
        /// A name in double quotes, backquotes or brackets; `text` is the name without them.
        case quotedName
        /// Any other character outside literals: parentheses, operators, punctuation, parameters.
        case symbol
    }

    let kind: Kind
    let text: String
    /// How many parentheses enclose the token.
    let depth: Int
}

/// Reads SQL text into tokens, and copies it with each literal (string, blob, number)
/// replaced by `?`; comments are dropped from both. Not a parser: enough to name a span.
enum SQLScanner {
    static func scan(_ sql: String) -> (tokens: [SQLToken], sanitized: String) {
        let bytes = Array(sql.utf8)
        var tokens = [SQLToken]()
        var sanitized = [UInt8]()
        sanitized.reserveCapacity(bytes.count)
        var depth = 0
        var index = 0
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        /// Moves past a quoted run that starts at `index` and ends with `close` (doubled inside).
        func skipQuoted(close: UInt8) {
            index += 1
            while index < bytes.count {
                if bytes[index] == close {
                    if at(1) == close && close != UInt8(ascii: "]") { index += 2; continue }
                    index += 1
                    return
                }
                index += 1
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            let start = index
            switch byte {
            case UInt8(ascii: "-") where at(1) == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "/") where at(1) == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count && !(bytes[index] == UInt8(ascii: "*") && at(1) == UInt8(ascii: "/")) { index += 1 }
                index = min(index + 2, bytes.count)
                continue
            case UInt8(ascii: "'"):
                skipQuoted(close: UInt8(ascii: "'"))
                sanitized.append(UInt8(ascii: "?"))
                continue
            case _ where byte | 0x20 == UInt8(ascii: "x") && at(1) == UInt8(ascii: "'"):
                index += 1
                skipQuoted(close: UInt8(ascii: "'"))
                sanitized.append(UInt8(ascii: "?"))
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                skipQuoted(close: close)
                let inner = text(start + 1..<max(start + 1, index - 1))
                let doubled = String(decoding: [close, close], as: UTF8.self)
                let single = String(decoding: [close], as: UTF8.self)
                tokens.append(SQLToken(kind: .quotedName, text: inner.replacingOccurrences(of: doubled, with: single), depth: depth))
            case UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: ".") where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(at(1)):
                while index < bytes.count, isNumberByte(bytes[index]) || isExponentSign(at: index, in: bytes) { index += 1 }
                sanitized.append(UInt8(ascii: "?"))
                continue
            case _ where isWordStart(byte):
                while index < bytes.count && (isWordStart(bytes[index]) || isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "$")) {
                    index += 1
                }
                tokens.append(SQLToken(kind: .word, text: text(start..<index), depth: depth))
            case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "$"):
                // A parameter: copied as written, never a value.
                index += 1
                while index < bytes.count && (isWordStart(bytes[index]) || isDigit(bytes[index])) { index += 1 }
                tokens.append(SQLToken(kind: .symbol, text: text(start..<index), depth: depth))
            default:
                index += 1
                if byte == UInt8(ascii: ")") { depth = max(0, depth - 1) }
                if byte > 0x20 { tokens.append(SQLToken(kind: .symbol, text: text(start..<index), depth: depth)) }
                if byte == UInt8(ascii: "(") { depth += 1 }
            }
            sanitized.append(contentsOf: bytes[start..<index])
        }
        let text = String(decoding: sanitized, as: UTF8.self)
        return (tokens, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// A letter, `_`, or any byte of a non-ASCII character: what starts a bare name.
    private static func isWordStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    /// Digits, `.`, and letters (hexadecimal digits, `x`, exponents) of a numeric literal.
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: ".") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// A sign right after an exponent's `e`, inside a number (`1e-3`).
    private static func isExponentSign(at index: Int, in bytes: [UInt8]) -> Bool {
        (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) && index > 0
            && bytes[index - 1] | 0x20 == UInt8(ascii: "e") && index >= 2 && isDigit(bytes[index - 2])
    }
}
