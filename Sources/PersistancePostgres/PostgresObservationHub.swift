#if PostgreSQL
import Persistance
import Synchronization

/// One running value observation of a PostgreSQL database and everyone who receives its values
/// (see ``PostgresDatabase/observe(_:)``): a task of its own fetches, and fetches again
/// whenever a commit touched what the last fetch read; its `ObservationMembers` hand each value
/// to every member. An observation made without a sharing key has a hub of its own;
/// observations made with the same key (and value type) join the same hub while it runs.
///
/// The task starts when the first member joins and is cancelled when the last one leaves; a
/// fetch that throws, or the database closing, ends the hub for every member. A hub that
/// ended is never joined again.
final class PostgresObservationHub<Value: Sendable>: SharedObservationHub {
    /// While commits keep landing, the least time from one fetch's start to the next.
    static var pacing: Duration { .milliseconds(8) }

    private let database: PostgresDatabase
    private let fetch: nonisolated(nonsending) @Sendable (PostgresTransaction) async throws -> Value
    /// Told, with the hub, once it ends (to forget it).
    private let onEnd: @Sendable (AnyObject) -> Void
    private let members = ObservationMembers<Value>()
    /// The task that fetches, once the first member joined.
    private let fetcher = Mutex<Task<Void, Never>?>(nil)

    init(
        database: PostgresDatabase, fetch: nonisolated(nonsending) @escaping @Sendable (PostgresTransaction) async throws -> Value,
        onEnd: @escaping @Sendable (AnyObject) -> Void
    ) {
        self.database = database
        self.fetch = fetch
        self.onEnd = onEnd
    }

    /// Adds `member`, handing it the last value at once if there is one, and starts fetching
    /// if it is the first. Returns its id, or nil if the hub has ended.
    func join(_ member: ObservationMembers<Value>.Member) -> UInt64? {
        guard let joined = members.join(member) else { return nil }
        if joined.isFirst {
            let task = Task {
                do {
                    try await run()
                } catch is CancellationError {
                    end(with: nil)
                } catch {
                    end(with: database.changeNotifier.isClosed ? nil : error)
                }
            }
            fetcher.withLock { $0 = task }
            if !members.isActive { task.cancel() }  // every member left before the task was kept
        }
        return joined.id
    }

    /// Removes the member `id`; the last one leaving ends the hub.
    func leave(_ id: UInt64) {
        guard members.leave(id) else { return }
        stop()
    }

    /// Ends the hub for every member, with `error` or none.
    private func end(with error: (any Error)?) {
        guard members.end(with: error) else { return }
        stop()
    }

    private func stop() {
        fetcher.withLock { $0 }?.cancel()
        onEnd(self)
    }

    /// Fetches, and fetches again whenever a commit touched what the last fetch read, until
    /// cancelled or failing.
    private func run() async throws {
        let notifier = database.changeNotifier
        let region = PostgresObservedRegion()
        let id = try await notifier.subscribe(.init(receive: region.note, finish: { [weak self] in self?.end(with: nil) }))
        defer { notifier.unsubscribe(id) }
        var lastStart = ContinuousClock.now
        var waits = false
        while true {
            if waits {
                try await region.waitUntilNeedsFetch()
                let earliest = lastStart.advanced(by: Self.pacing)
                if ContinuousClock.now < earliest { try await Task.sleep(until: earliest) }
            }
            lastStart = ContinuousClock.now
            let triggered = notifier.triggeredTables
            region.beginFetch()
            let (value, tables) = try await database.read(isolationLevel: .repeatableRead) { tx in
                let value = try await fetch(tx)
                return (value, try await PostgresChangeTriggers.tablesLocked(by: tx))
            }
            region.endFetch(read: Set(tables.map(\.qualifiedName)))
            // A table read for the first time may have had no trigger when the snapshot was
            // taken: its commits since then went unheard, so the value is dropped and fetched again.
            waits = tables.isSubset(of: triggered)
            guard waits else {
                try await notifier.installTriggers(on: tables, through: database.client)
                continue
            }
            members.deliver(value)
        }
    }
}
#endif
