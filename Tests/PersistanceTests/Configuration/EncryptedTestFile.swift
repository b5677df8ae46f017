@testable import Persistance

/// Creates the database `path` encrypted with `key` (SQLCipher builds only), holding a table
/// `t(x)` with one row, `'secret'`.
func makeEncryptedFile(at path: String, key: String) throws {
    var configuration = DatabaseConfiguration(path: path)
    configuration.secretKeys = [key]
    let conn = try configuration.openWriter()
    defer { try? conn.close() }
    try conn.execute("CREATE TABLE t(x); INSERT INTO t VALUES ('secret')")
}
