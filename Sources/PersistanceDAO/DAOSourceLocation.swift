/// A place in a module file: its name, and a 1-based line and column.
public struct DAOSourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file (or the name given to a module loaded from a string).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// A location in `file`.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}
