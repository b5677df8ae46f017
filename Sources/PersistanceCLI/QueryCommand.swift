import ArgumentParser
import Foundation
import Persistance

/// `persistance query FILE SQL`: runs one statement and prints its rows.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run one SQL statement and print its rows (an aligned table, JSON or CSV).",
        discussion: """
            The file is opened read-only and only a statement that changes nothing runs, unless --write is given; \
            then the statement runs in a transaction. ATTACH and VACUUM (which open or write other files) never \
            run here: use 'backup' for a copy, 'vacuum' to compact the file.
            """)

    @OptionGroup var database: DatabaseFileOptions

    @Argument(help: "One SQL statement.")
    var sql: String

    @Flag(help: "Print the rows as a JSON array of objects.")
    var json = false

    @Flag(help: "Print the rows as CSV (RFC 4180), with a header line.")
    var csv = false

    @Flag(help: "Allow the statement to change the database.")
    var write = false

    func validate() throws {
        if json && csv { throw ValidationError("choose one of --json and --csv") }
    }

    func run() throws {
        let conn = try database.open(readOnly: !write)
        defer { try? conn.close() }
        do {
            let (columns, rows) = try write ? conn.transaction { try fetch(conn) } : fetch(conn)
            let format: RowFormat = json ? .json : csv ? .csv : .table
            print(try format.render(columns: columns, rows: rows))
        } catch {
            throw CLIError.oneLine(error)
        }
    }

    private func fetch(_ conn: Connection) throws -> ([String], [[DatabaseValue]]) {
        if let keyword = Self.leadingKeyword(of: sql), ["ATTACH", "VACUUM"].contains(keyword) {
            throw CLIError("query does not run \(keyword): it opens or writes another file, with no check of its path "
                + "or mode; use 'persistance backup' for a copy, 'persistance vacuum' to compact the file")
        }
        let statement = try conn.prepare(sql)
        guard write || statement.isReadOnly else {
            throw CLIError("this statement changes the database, and query runs read-only statements only; "
                + "add --write to run it (in a transaction)")
        }
        var rows = [[DatabaseValue]]()
        while try statement.step() {
            rows.append((0..<statement.columnCount).map(statement.column(at:)))
        }
        return (statement.columnNames, rows)
    }

    /// The statement's first keyword, upper-cased, after blanks and comments.
    static func leadingKeyword(of sql: String) -> String? {
        var rest = Substring(sql)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*") {
                rest = rest.dropFirst(2)
                rest = rest.range(of: "*/").map { rest[$0.upperBound...] } ?? ""
            } else {
                break
            }
        }
        let keyword = rest.prefix(while: { $0.isLetter })
        return keyword.isEmpty ? nil : keyword.uppercased()
    }
}
