import Synchronization

/// Everyone who receives the values of one running value observation, whatever the engine
/// that fetches them (SQLite's `ObservationHub`, PostgreSQL's observation hub): each value
/// goes to every member, in order; a member that joins later first receives the last value;
/// the observation ends once for everyone, with the fetch's error or none.
///
/// It only keeps the members: starting and stopping the fetches is the engine's, told by what
/// `join(_:)` and `leave(_:)` return.
package final class ObservationMembers<Value: Sendable>: Sendable {
    /// One receiver of the values.
    package struct Member: Sendable {
        /// Hands on a value. Called under the members' lock, in order: it must not block.
        let deliver: @Sendable (Value) -> Void
        /// The observation ended, with the fetch's error or none.
        let finish: @Sendable ((any Error)?) -> Void

        /// A member that hands each value to a new stream (holding only the newest value the
        /// consumer has not taken yet), skipping a value that `isDuplicate` finds equal to the
        /// one before it; and that stream.
        package static func feedingStream(
            skipping isDuplicate: (@Sendable (Value, Value) -> Bool)?
        ) -> (member: Member, stream: AsyncThrowingStream<Value, any Error>, continuation: AsyncThrowingStream<Value, any Error>.Continuation) {
            let (stream, continuation) = AsyncThrowingStream.makeStream(
                of: Value.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1))
            let previous = Guarded<Value?>(nil)
            let member = Member(
                deliver: { value in
                    if let isDuplicate {
                        let skips = previous.withLock { previous in
                            defer { previous = value }
                            return previous.map { isDuplicate($0, value) } ?? false
                        }
                        if skips { return }
                    }
                    continuation.yield(value)
                },
                finish: { error in continuation.finish(throwing: error) })
            return (member, stream, continuation)
        }
    }

    private struct State: Sendable {
        var members: [UInt64: Member] = [:]
        var nextID: UInt64 = 0
        /// The last value delivered, handed to members that join later.
        var latest: Value?
        var hasStarted = false
        var hasEnded = false
    }

    private let state = Mutex(State())

    package init() {}

    /// Adds `member`, handing it the last value at once if there is one. Returns its id, and
    /// whether it is the first member ever (the engine must start fetching); nil once the
    /// observation has ended.
    package func join(_ member: Member) -> (id: UInt64, isFirst: Bool)? {
        state.withLock { state in
            guard !state.hasEnded else { return nil }
            state.nextID += 1
            state.members[state.nextID] = member
            if let latest = state.latest { member.deliver(latest) }
            defer { state.hasStarted = true }
            return (state.nextID, !state.hasStarted)
        }
    }

    /// Removes the member `id`. Returns true when it was the last one: the observation has
    /// ended (the engine must stop fetching).
    package func leave(_ id: UInt64) -> Bool {
        state.withLock { state in
            guard state.members.removeValue(forKey: id) != nil, state.members.isEmpty, !state.hasEnded else { return false }
            state.hasEnded = true
            return true
        }
    }

    /// Whether the observation still runs: anyone receives its values.
    package var isActive: Bool { state.withLock { !$0.hasEnded } }

    /// The number of members (for tests).
    package var count: Int { state.withLock { $0.members.count } }

    /// Hands `value` to every member, and keeps it for those who join later.
    package func deliver(_ value: Value) {
        state.withLock { state in
            guard !state.hasEnded else { return }
            state.latest = value
            for member in state.members.values {
                member.deliver(value)
            }
        }
    }

    /// Ends the observation for every member, with `error` or none. Returns false when it had
    /// ended already (nothing done).
    package func end(with error: (any Error)?) -> Bool {
        let members = state.withLock { state -> [Member]? in
            guard !state.hasEnded else { return nil }
            state.hasEnded = true
            defer { state.members.removeAll() }
            return Array(state.members.values)
        }
        guard let members else { return false }
        for member in members {
            member.finish(error)
        }
        return true
    }
}
