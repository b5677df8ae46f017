import Testing

@testable import Persistance

/// Expects `body` to throw a `DatabaseError` of `kind` and returns it for further checks.
@discardableResult
func expectThrows<T>(
    _ kind: DatabaseError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> DatabaseError? {
    let error = #expect(throws: DatabaseError.self, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.kind == kind, sourceLocation: sourceLocation)
    return error
}
