import Foundation
import Testing

@testable import Persistance

/// A fresh directory for one test, deleted when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("persistance-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}

/// Runs `body` with a fresh connection to a file database in its own temporary directory.
func withTemporaryConnection<T>(
    _ name: String = "test.sqlite",
    options: Connection.Options = Connection.Options(),
    _ body: (Connection, TemporaryDirectory) throws -> T
) throws -> T {
    let directory = try TemporaryDirectory()
    let connection = try Connection(path: directory.path(name), options: options)
    defer { try? connection.close() }
    return try body(connection, directory)
}

/// Whether `error` is a `DatabaseError` of `kind`.
func isDatabaseError(_ error: any Error, _ kind: DatabaseError.Kind) -> Bool {
    (error as? DatabaseError)?.kind == kind
}

/// Whether `error` is a `DatabaseError` whose primary or extended result code is `code`.
func isDatabaseError(_ error: any Error, code: ResultCode) -> Bool {
    guard let error = error as? DatabaseError, let extended = error.extendedResultCode else { return false }
    return extended == code || extended.primary == code
}
