/// Reads JSON text into a `JSONValue`: the documents a collection stored, and the output of
/// `JSONEncoder` for `Codable` documents. Integers that fit in `Int64` and are written
/// without a fraction or exponent stay integers. Values nested deeper than
/// `DocumentCollection.maximumDepth` (the top-level value is at depth 1) are refused with
/// `DatabaseError.Kind.documentTooDeep`, so the recursion is bounded.
struct JSONParser {
    private let bytes: [UInt8]
    private var position = 0

    /// Parses `text`, which must hold exactly one JSON value.
    static func parse(_ text: String) throws -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        let value = try parser.parseValue(depth: 1)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func failure(_ message: String) -> DatabaseError {
        DatabaseError(kind: .invalidDocument, message: "malformed JSON at byte \(position): \(message)")
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ word: String) throws {
        for byte in word.utf8 {
            guard current == byte else { throw failure("expected \(word)") }
            position += 1
        }
    }

    private mutating func parseValue(depth: Int) throws -> JSONValue {
        try JSONValue.checkDepth(depth, at: "byte \(position)")
        skipWhitespace()
        switch current {
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case .some: return try parseNumber()
        case nil: throw failure("unexpected end")
        }
    }

    private mutating func parseArray(depth: Int) throws -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw failure("expected , or ]")
            }
        }
    }

    private mutating func parseObject(depth: Int) throws -> JSONValue {
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try parseString()
            skipWhitespace()
            try expect(":")
            members[key] = try parseValue(depth: depth + 1)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw failure("expected , or }")
            }
        }
    }

    private mutating func parseString() throws -> String {
        position += 1
        var scalars: [UInt8] = []
        var runStart = position
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                scalars.append(contentsOf: bytes[runStart..<position])
                position += 1
                return String(decoding: scalars, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\") else {
                position += 1
                continue
            }
            scalars.append(contentsOf: bytes[runStart..<position])
            position += 1
            guard let escaped = current else { throw failure("unterminated escape") }
            position += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "u"): scalars.append(contentsOf: try parseUnicodeEscape())
            default: throw failure("unknown escape")
            }
            runStart = position
        }
    }

    /// The UTF-8 bytes of a `\uXXXX` escape (a surrogate pair takes two); the `\u` is read.
    private mutating func parseUnicodeEscape() throws -> [UInt8] {
        var code = try parseHex4()
        if (0xD800..<0xDC00).contains(code) {
            guard current == UInt8(ascii: "\\") else { throw failure("lone surrogate") }
            position += 1
            try expect("u")
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("lone surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw failure("invalid code point") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard position + 4 <= bytes.count,
            let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
        else { throw failure("bad \\u escape") }
        position += 4
        return code
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = position
        var isInteger = true
        while let byte = current {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"): break
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): isInteger = false
            default:
                return try number(from: start, isInteger: isInteger)
            }
            position += 1
        }
        return try number(from: start, isInteger: isInteger)
    }

    private func number(from start: Int, isInteger: Bool) throws -> JSONValue {
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite, text.first != "+", text.first != "." else {
            throw failure(text.isEmpty ? "unexpected character" : "invalid number \(text)")
        }
        return .double(value)
    }
}
