/// What a statement that opens, releases or rolls back to a savepoint does, read from its SQL
/// when it is prepared: the change recorder follows every savepoint through it, the library's
/// own and those written in raw SQL alike, so the changes a `ROLLBACK TO` undid are never
/// announced.
///
/// `ROLLBACK` without `TO` ends the whole transaction; SQLite's rollback hook reports that,
/// so it is not a savepoint command.
enum SavepointCommand: Equatable {
    /// `SAVEPOINT name`: opens a savepoint (and a transaction, outside one).
    case open(name: String)
    /// `RELEASE [SAVEPOINT] name`: ends the most recent savepoint of that name and every
    /// savepoint opened after it, keeping their changes.
    case release(name: String)
    /// `ROLLBACK [TRANSACTION] TO [SAVEPOINT] name`: undoes the changes made since the most
    /// recent savepoint of that name began; that savepoint stays open.
    case rollback(name: String)

    /// The savepoint command `sql` runs, or nil for any other statement. Names are folded to
    /// ASCII lowercase: SQLite matches savepoint names without regard to ASCII case.
    init?(sql: String) {
        // Most statements are told apart by their first character, without tokenizing them.
        guard let first = sql.utf8.first(where: { $0 > 0x20 }),
              [UInt8(ascii: "s"), UInt8(ascii: "r"), UInt8(ascii: "-"), UInt8(ascii: "/")].contains(first | 0x20)
        else { return nil }
        let tokens = SQLToken.tokens(of: sql).filter { !$0.isSymbol(";") }
        var position = 0
        func take(_ keyword: String) -> Bool {
            guard position < tokens.count, tokens[position].isKeyword(keyword) else { return false }
            position += 1
            return true
        }
        let make: (String) -> SavepointCommand
        if take("SAVEPOINT") {
            make = { .open(name: $0) }
        } else if take("RELEASE") {
            _ = take("SAVEPOINT")
            make = { .release(name: $0) }
        } else if take("ROLLBACK") {
            _ = take("TRANSACTION")
            guard take("TO") else { return nil }
            _ = take("SAVEPOINT")
            make = { .rollback(name: $0) }
        } else {
            return nil
        }
        guard position == tokens.count - 1, let name = Self.savepointName(tokens[position]) else { return nil }
        self = make(RowColumns.fold(name))
    }

    /// The name a savepoint-name token stands for: a bare or quoted name, or a string literal.
    private static func savepointName(_ token: SQLToken) -> String? {
        guard token.kind == .string else { return token.name }
        return token.text.dropFirst().dropLast().replacingOccurrences(of: "''", with: "'")
    }
}
