import Foundation
import Persistance
import PersistanceDAO
import Testing

/// A fresh directory for one test, deleted when the value is released.
final class DAOTemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("persistance-dao-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// A database file in the directory, opened.
    func database(_ name: String = "dao.sqlite") async throws -> Database {
        try await Database.open(configuration: DatabaseConfiguration(path: path(name)))
    }
}

/// `sql` with every run of whitespace made one space, trimmed: rendered SQL keeps the
/// module's line breaks and indentation, which tests do not care about.
func squeezed(_ sql: String) -> String {
    sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

/// The rendered statements of the method a call would run (without the table's
/// preparation), whitespace squeezed.
func renderedSQL(_ dao: DAO, _ id: String, _ arguments: [String: DAOValue] = [:]) async throws -> [String] {
    try await methodStatements(dao, id, arguments).map { squeezed($0.sql) }
}

/// The rendered statements of the method a call would run, without the table's preparation.
func methodStatements(_ dao: DAO, _ id: String, _ arguments: [String: DAOValue] = [:]) async throws -> [DAORenderedStatement] {
    try await dao.renderedStatements(for: id, arguments).filter { $0.purpose == .method }
}

/// The DAO error `body` throws, or nil.
func daoError(_ body: () throws -> Void) -> DAOError? {
    do {
        try body()
        return nil
    } catch {
        return error as? DAOError
    }
}

/// The DAO error `body` throws, or nil.
func daoError(_ body: () async throws -> Void) async -> DAOError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? DAOError
    }
}

/// Records the events a DAO reports.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [DAOEvent] = []

    var events: [DAOEvent] {
        lock.withLock { recorded }
    }

    func record(_ event: DAOEvent) {
        lock.withLock { recorded.append(event) }
    }
}
