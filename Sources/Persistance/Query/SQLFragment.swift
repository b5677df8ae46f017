/// The check a raw SQL fragment (a `WHERE` condition, an `.sql(…)` expression) passes before
/// it is spliced into a statement, so that it cannot reach outside its place: `id = 1) OR (1 = 1`
/// would otherwise escape the parentheses around it, and a NUL would make SQLite ignore the
/// rest of the statement.
@usableFromInline
enum SQLFragment {
    /// Throws `.invalidArguments` when `fragment` contains a NUL byte or a `;`, closes a
    /// parenthesis it did not open or leaves one open, or leaves a string literal, quoted
    /// identifier or comment unterminated. Text inside literals, quoted identifiers and
    /// comments is not parsed.
    @usableFromInline
    static func validate(_ fragment: String) throws {
        if let problem = problem(in: fragment) {
            throw DatabaseError(kind: .invalidArguments, message: "invalid SQL fragment: \(problem)", sql: fragment)
        }
    }

    /// What is wrong with `fragment`, or nil.
    private static func problem(in fragment: String) -> String? {
        let bytes = Array(fragment.utf8)
        if bytes.contains(0) { return "it contains a NUL character, which would cut the statement short" }
        var depth = 0
        var index = 0
        /// Moves past the text that ends with `terminator` (a doubled quote character stays
        /// inside a quoted text); false when the fragment ends first.
        func skip(past terminator: [UInt8], doubling: Bool) -> Bool {
            while index < bytes.count {
                if bytes[index...].starts(with: terminator) {
                    index += terminator.count
                    guard doubling, index < bytes.count, bytes[index] == terminator[0] else { return true }
                }
                index += 1
            }
            return false
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            index += 1
            switch byte {
            case UInt8(ascii: ";"):
                return "it contains `;`; a fragment cannot hold a second statement"
            case UInt8(ascii: "("):
                depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth < 0 { return "it closes a parenthesis it did not open" }
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                if !skip(past: [byte], doubling: true) { return "a quoted text or identifier is not closed" }
            case UInt8(ascii: "["):
                if !skip(past: [UInt8(ascii: "]")], doubling: false) { return "a [quoted] identifier is not closed" }
            case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                if !skip(past: [0x0A], doubling: false) {
                    return "a -- comment runs to its end; end it with a line break"
                }
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                index += 1
                if !skip(past: Array("*/".utf8), doubling: false) { return "a /* comment is not closed" }
            default:
                break
            }
        }
        return depth > 0 ? "it leaves a parenthesis open" : nil
    }
}
