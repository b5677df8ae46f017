import Foundation
import Testing

@testable import Persistance

@Suite struct ConnectionTests {
    @Test func opensFileAndExecutes() throws {
        try withTemporaryConnection { conn, _ in
            try conn.execute("CREATE TABLE t(a INTEGER, b TEXT)")
            try conn.execute("INSERT INTO t VALUES (?, ?)", [1, "one"])
            #expect(conn.lastInsertRowID == 1)
            #expect(conn.changes == 1)
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 1)
        }
    }
}
