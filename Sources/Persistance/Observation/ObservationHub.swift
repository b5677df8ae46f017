/// One running value observation and everyone who receives its values: its database's
/// `ObservationScheduler` fetches it once per round of relevant commits, and it hands each
/// value to every member. An observation made without a sharing key has a hub of its own;
/// observations made with the same key (and value type) join the same hub while it runs
/// (see `SharedObservations`).
///
/// The hub registers with the scheduler when its first member joins and unregisters when its
/// last member leaves; a fetch that throws, or the database closing, ends it for every
/// member. A hub that ended is never joined again.
final class ObservationHub<Value: Sendable>: ScheduledObservation {
    /// One receiver of the hub's values.
    struct Member: Sendable {
        /// Hands on a value. Called under the hub's lock, in order: it must not block.
        let deliver: @Sendable (Value) -> Void
        /// The observation ended, with the fetch's error or none.
        let finish: @Sendable ((any Error)?) -> Void
    }

    private struct State: Sendable {
        var members: [UInt64: Member] = [:]
        var nextID: UInt64 = 0
        /// The last value fetched, handed to members that join later.
        var latest: Value?
        var isRegistered = false
        var hasEnded = false
    }

    private let database: Database
    private let fetch: @Sendable (Connection) throws -> Value
    /// Told, with the hub, once it ends (to forget it).
    private let onEnd: @Sendable (AnyObject) -> Void
    private let state = Guarded(State())

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
        let joined = state.withLock { state -> (id: UInt64, registers: Bool)? in
            guard !state.hasEnded else { return nil }
            state.nextID += 1
            state.members[state.nextID] = member
            if let latest = state.latest { member.deliver(latest) }
            defer { state.isRegistered = true }
            return (state.nextID, !state.isRegistered)
        }
        guard let joined else { return nil }
        if joined.registers {
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
        let ends = state.withLock { state -> Bool in
            guard state.members.removeValue(forKey: id) != nil, state.members.isEmpty, !state.hasEnded else { return false }
            state.hasEnded = true
            return true
        }
        guard ends else { return }
        scheduler.unregister(self)
        onEnd(self)
    }

    /// The number of members (for tests).
    var memberCount: Int { state.withLock { $0.members.count } }

    var isActive: Bool { state.withLock { !$0.hasEnded } }

    func fetchAndDeliver(on connection: Connection) throws {
        let value = try fetch(connection)
        state.withLock { state in
            guard !state.hasEnded else { return }
            state.latest = value
            for member in state.members.values {
                member.deliver(value)
            }
        }
    }

    func end(with error: (any Error)?) {
        let members = state.withLock { state -> [Member]? in
            guard !state.hasEnded else { return nil }
            state.hasEnded = true
            defer { state.members.removeAll() }
            return Array(state.members.values)
        }
        guard let members else { return }
        scheduler.unregister(self)
        for member in members {
            member.finish(error)
        }
        onEnd(self)
    }
}
