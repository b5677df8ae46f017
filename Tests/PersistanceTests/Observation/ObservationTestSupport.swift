import Foundation
import Testing

@testable import Persistance

/// A file database with a `player(id, name, score)` and an `item(id, label)` table, in its
/// own temporary directory.
// @unchecked: every property is a constant, and `TemporaryDirectory` only holds a constant URL.
struct ObservedDatabase: @unchecked Sendable {
    let directory: TemporaryDirectory
    let db: Database

    init() async throws {
        directory = try TemporaryDirectory()
        db = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("observed.sqlite")))
        try await db.write { conn in
            try conn.execute("CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score REAL)")
            try conn.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, label TEXT)")
        }
    }

    func insertPlayer(_ name: String) async throws {
        try await db.write { conn in try conn.execute("INSERT INTO player(name, score) VALUES (?, 0)", [name]) }
    }

    func insertItem(_ label: String) async throws {
        try await db.write { conn in try conn.execute("INSERT INTO item(label) VALUES (?)", [label]) }
    }

    /// The number of players, as an observation sees it.
    func playerCount(_ conn: Connection) throws -> Int {
        try conn.fetchOne(Int.self, "SELECT count(*) FROM player") ?? -1
    }
}

/// Iterates a sequence in a task of its own and keeps what it yields, so a test can wait for
/// elements with a deadline (a missing element fails the test instead of hanging it).
final class Collector<Element: Sendable>: Sendable {
    private let state = Guarded((elements: [Element](), failure: (any Error)?.none, isFinished: false))
    private let task: Guarded<Task<Void, Never>?> = Guarded(nil)

    init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        let state = self.state
        task.withLock {
            $0 = Task {
                do {
                    for try await element in sequence {
                        state.withLock { $0.elements.append(element) }
                    }
                } catch {
                    state.withLock { $0.failure = error }
                }
                state.withLock { $0.isFinished = true }
            }
        }
    }

    var elements: [Element] { state.withLock { $0.elements } }
    var failure: (any Error)? { state.withLock { $0.failure } }
    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Waits until at least `count` elements came, and returns them all.
    @discardableResult
    func waitFor(_ count: Int, within seconds: Double = 20) async throws -> [Element] {
        try await eventually(within: seconds) { self.elements.count >= count || self.isFinished }
        return elements
    }

    /// Waits until an element satisfies `condition`, and returns them all.
    @discardableResult
    func waitUntil(within seconds: Double = 20, _ condition: @escaping @Sendable (Element) -> Bool) async throws -> [Element] {
        try await eventually(within: seconds) { self.elements.contains(where: condition) || self.isFinished }
        return elements
    }

    /// Cancels the iterating task and waits for it to end.
    func cancel() async {
        let task = task.withLock { $0 }
        task?.cancel()
        await task?.value
    }
}

/// Waits until `condition` holds, failing with `TimedOut` after `seconds`.
func eventually(within seconds: Double = 20, _ condition: @escaping @Sendable () -> Bool) async throws {
    try await withTimeout(seconds) {
        while !condition() {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
