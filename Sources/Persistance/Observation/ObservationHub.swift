/// One running value observation of a SQLite database and everyone who receives its values:
/// its database's `ObservationScheduler` fetches it once per round of relevant commits, and
/// its `ObservationMembers` hand each value to every member. An observation made without a
/// sharing key has a hub of its own; observations made with the same key (and value type)
/// join the same hub while it runs (see `SharedObservations`).
///
/// The hub registers with the scheduler when its first member joins and unregisters when its
/// last member leaves; a fetch that throws, or the database closing, ends it for every
/// member. A hub that ended is never joined again.
final class ObservationHub<Value: Sendable>: ScheduledObservation, SharedObservationHub {
    typealias Member = ObservationMembers<Value>.Member

    private let database: Database
    private let fetch: @Sendable (Connection) throws -> Value
    /// Told, with the hub, once it ends (to forget it).
    private let onEnd: @Sendable (AnyObject) -> Void
    private let members = ObservationMembers<Value>()

    init(database: Database, fetch: @escaping @Sendable (Connection) throws -> Value, onEnd: @escaping @Sendable (AnyObject) -> Void) {
        self.database = database
        self.fetch = fetch
        self.onEnd = onEnd
    }

    private var scheduler: ObservationScheduler { database.changeTracker.observationScheduler }

    /// Adds `member`, handing it the last value at once if there is one, and registers the
    /// hub with the scheduler if it is the first. Returns its id, or nil if the hub has
    /// ended. The member is finished at once if the database closed.
    func join(_ member: Member) -> UInt64? {
        guard let joined = members.join(member) else { return nil }
        if joined.isFirst {
            if !scheduler.register(self, of: database) {
                end(with: nil)
            } else if !isActive {
                scheduler.unregister(self)  // every member left while the hub registered
            }
        }
        return joined.id
    }

    /// Removes the member `id`; the last one leaving ends the hub.
    func leave(_ id: UInt64) {
        guard members.leave(id) else { return }
        scheduler.unregister(self)
        onEnd(self)
    }

    var isActive: Bool { members.isActive }

    func fetchAndDeliver(on connection: Connection) throws {
        members.deliver(try fetch(connection))
    }

    func end(with error: (any Error)?) {
        guard members.end(with: error) else { return }
        scheduler.unregister(self)
        onEnd(self)
    }
}
