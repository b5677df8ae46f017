import Foundation
import PersistanceMacros
import Testing

/// Runs `body` with a fresh connection to a file database in its own temporary directory.
func withTemporaryConnection<T>(_ body: (Connection) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("persistance-macros-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let connection = try Connection(path: directory.appendingPathComponent("test.sqlite").path)
    defer { try? connection.close() }
    return try body(connection)
}

/// The error `body` throws, expected to be a `DatabaseError` of `kind`.
@discardableResult
func expectDatabaseError<T>(
    _ kind: DatabaseError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> DatabaseError? {
    let error = #expect(throws: DatabaseError.self, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.kind == kind, sourceLocation: sourceLocation)
    return error
}
