import Foundation
import Testing

@testable import Persistance

/// Fills `path` with a table of `rows` rows of ~200 bytes each, then closes it
/// (rollback-journal mode, so the file alone holds the database).
func makeDatabaseFile(at path: String, rows: Int) throws {
    let conn = try Connection(path: path)
    try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    try conn.transaction {
        for id in 1...rows {
            try conn.execute("INSERT INTO t(id, body) VALUES (?, ?)", [id, String(repeating: "row \(id) ", count: 20)])
        }
    }
    try conn.close()
}

/// The file's bytes, to prove that a failed open left it untouched.
func fileBytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Makes `path` unwritable for the rest of `body`, even for root (by the immutable
/// attribute, which root's write permission does not bypass), then restores it.
@discardableResult
func withUnwritable<T>(_ path: String, _ body: () async throws -> T) async throws -> T {
    let original = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0o644
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: path)
    var immutable = false
    if isWritable(path) {
        immutable = runChattr("+i", path)
    }
    defer {
        if immutable { _ = runChattr("-i", path) }
        try? FileManager.default.setAttributes([.posixPermissions: original], ofItemAtPath: path)
    }
    try #require(!isWritable(path), "could not make \(path) read-only on this machine")
    return try await body()
}

private func isWritable(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if isDirectory.boolValue {
        let probe = path + "/.write-probe-\(UUID().uuidString)"
        let created = FileManager.default.createFile(atPath: probe, contents: Data())
        if created { try? FileManager.default.removeItem(atPath: probe) }
        return created
    }
    let descriptor = open(path, O_WRONLY)
    if descriptor >= 0 { close(descriptor) }
    return descriptor >= 0
}

private func runChattr(_ flag: String, _ path: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = [flag, path]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}
