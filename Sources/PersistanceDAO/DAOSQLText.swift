/// What the DAO needs to know about rendered SQL text, read without preparing it: its
/// first keyword, and whether it holds more than one statement. Quoted strings and
/// identifiers and comments are skipped, so a `;` or keyword inside them does not count.
enum DAOSQLText {
    /// Whether the statement `sql` starts with `INSERT` or `REPLACE` (any case), after
    /// whitespace and comments.
    static func isInsert(_ sql: String) -> Bool {
        var scanner = Scanner(sql)
        scanner.skipSpaceAndComments()
        let word = scanner.word().lowercased()
        return word == "insert" || word == "replace"
    }

    /// Whether `sql` holds more than one statement: something other than whitespace,
    /// comments and `;` after a `;` that ends a statement.
    static func holdsMoreThanOneStatement(_ sql: String) -> Bool {
        var scanner = Scanner(sql)
        var endedStatement = false
        while true {
            scanner.skipSpaceAndComments()
            guard let byte = scanner.peek() else { return false }
            if byte == UInt8(ascii: ";") {
                endedStatement = true
                scanner.advance()
                continue
            }
            if endedStatement { return true }
            scanner.skipToken()
        }
    }

    /// Reads SQL text byte by byte (every character that matters is ASCII).
    private struct Scanner {
        private let bytes: [UInt8]
        private var index = 0

        init(_ text: String) {
            bytes = Array(text.utf8)
        }

        func peek(_ offset: Int = 0) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        mutating func advance(_ count: Int = 1) {
            index = min(index + count, bytes.count)
        }

        mutating func skipSpaceAndComments() {
            while let byte = peek() {
                if byte == UInt8(ascii: " ") || (9...13).contains(byte) {
                    advance()
                } else if byte == UInt8(ascii: "-"), peek(1) == UInt8(ascii: "-") {
                    while let next = peek(), next != UInt8(ascii: "\n") { advance() }
                } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                    advance(2)
                    while peek() != nil, !(peek() == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) { advance() }
                    advance(2)
                } else {
                    return
                }
            }
        }

        /// Skips one token: a quoted string or identifier, or any other byte.
        mutating func skipToken() {
            guard let byte = peek() else { return }
            let closing: UInt8? =
                switch byte {
                case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"): byte
                case UInt8(ascii: "["): UInt8(ascii: "]")
                default: nil
                }
            advance()
            guard let closing else { return }
            // A doubled quote inside is the quote itself: skipping both in turn is the same.
            while let next = peek(), next != closing { advance() }
            advance()
        }

        /// The letters at the current position.
        mutating func word() -> String {
            let start = index
            while let byte = peek(), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) { advance() }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }
}
