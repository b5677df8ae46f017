import ArgumentParser
import Foundation
import Persistance

/// `persistance query FILE SQL`: runs one statement and prints its rows.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run one SQL statement and print its rows (an aligned table, JSON or CSV).",
        discussion: "The file is opened read-only unless --write is given; then the statement runs in a transaction.")

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
        let statement = try conn.prepare(sql)
        var rows = [[DatabaseValue]]()
        while try statement.step() {
            rows.append((0..<statement.columnCount).map(statement.column(at:)))
        }
        return (statement.columnNames, rows)
    }
}
