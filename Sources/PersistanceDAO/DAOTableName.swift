/// The rule for table names: `${T}` and `${t}` write the table name into the SQL as it is
/// written (as the seed's DAO does, so that `${T}_log` and `create index ${T}_idx` work),
/// which is safe only because a table name must be an identifier, `[A-Za-z_][A-Za-z0-9_]*`.
enum DAOTableName {
    /// Whether `name` is an identifier of ASCII letters, digits and `_`, not starting with a digit.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// `name`, checked.
    /// - Throws: `invalidTableName` when it is not an identifier.
    @discardableResult
    static func checked(_ name: String?, at location: DAOSourceLocation? = nil) throws -> String? {
        guard let name, !isValid(name) else { return name }
        throw DAOError(
            .invalidTableName, "table name \"\(name)\" is not an identifier ([A-Za-z_][A-Za-z0-9_]*)", at: location)
    }
}
