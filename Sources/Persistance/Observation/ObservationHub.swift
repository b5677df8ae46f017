/// One running value observation and everyone who receives its values: it fetches once per
/// batch of relevant commits and hands each value to every member. An observation made
/// without a sharing key has a hub of its own; observations made with the same key (and
/// value type) join the same hub while it runs (see `SharedObservations`).
///
/// The hub starts observing when its first member joins and stops (cancelling its fetch)
/// when its last member leaves; a fetch that throws, or the database closing, ends it for
/// every member. A hub that ended is never joined again.
final class ObservationHub<Value: Sendable>: Sendable {
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
        var task: Task<Void, Never>?
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

    /// Adds `member`, handing it the last value at once if there is one, and starts
    /// observing if it is the first. Returns its id, or nil if the hub has ended.
    func join(_ member: Member) -> UInt64? {
        state.withLock { state -> UInt64? in
            guard !state.hasEnded else { return nil }
            state.nextID += 1
            state.members[state.nextID] = member
            if let latest = state.latest { member.deliver(latest) }
            if state.task == nil {
                state.task = Task { await self.observe() }
            }
            return state.nextID
        }
    }

    /// Removes the member `id`; the last one leaving ends the hub and cancels its fetch.
    func leave(_ id: UInt64) {
        let task = state.withLock { state -> Task<Void, Never>?? in
            guard state.members.removeValue(forKey: id) != nil, state.members.isEmpty, !state.hasEnded else { return nil }
            state.hasEnded = true
            return .some(state.task)
        }
        guard let task else { return }
        task?.cancel()
        onEnd(self)
    }

    /// The number of members (for tests).
    var memberCount: Int { state.withLock { $0.members.count } }

    private func deliver(_ value: Value) {
        state.withLock { state in
            state.latest = value
            for member in state.members.values {
                member.deliver(value)
            }
        }
    }

    /// Ends the hub for every member, with `error` or none.
    private func end(with error: (any Error)?) {
        let members = state.withLock { state -> [Member] in
            state.hasEnded = true
            defer { state.members.removeAll() }
            return Array(state.members.values)
        }
        for member in members {
            member.finish(error)
        }
        onEnd(self)
    }

    /// Fetches, then fetches again each time a commit touched what the last fetch read.
    private func observe() async {
        let region = ObservedRegion()
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let subscription = database.changeTracker.subscribe(ChangeTracker.Subscriber(
            receive: { batch in
                if region.record(batch) { wake.yield() }
            },
            finish: { wake.finish() }))
        defer { subscription.cancel() }
        var wakeup = wakeups.makeAsyncIterator()
        do {
            await subscription.isRecording.value
            while true {
                deliver(try await database.fetchObserved(fetch, into: region))
                while !region.isStale {
                    guard await wakeup.next() != nil else { return end(with: nil) }
                }
            }
        } catch let error as DatabaseError where error.kind == .databaseClosed {
            end(with: nil)  // closing the database ends its observations
        } catch {
            end(with: error)
        }
    }
}
