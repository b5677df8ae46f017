/// A running value observation that members join, as `SharedObservations` keeps it: SQLite's
/// `ObservationHub`, PostgreSQL's observation hub.
package protocol SharedObservationHub: AnyObject, Sendable {
    associatedtype Value: Sendable
    /// Adds `member` and returns its id, or nil when the observation has ended (it is never
    /// joined again).
    func join(_ member: ObservationMembers<Value>.Member) -> UInt64?
}

/// The value observations of one database that share their fetches, by sharing key and
/// hub type (which tells the value type): an observation made with a key joins the running
/// hub of that key, if any.
package final class SharedObservations: Sendable {
    /// A sharing key and the hub type it observes with.
    private struct Key: Hashable, @unchecked Sendable {
        // @unchecked: `key` wraps a value that `observe(sharing:_:)` requires to be Sendable.
        let hubType: ObjectIdentifier
        let key: AnyHashable
    }

    private let hubs = Guarded<[Key: any AnyObject & Sendable]>([:])

    package init() {}

    /// Joins `member` to the running hub of `key` and `Hub`, making one with `makeHub` when
    /// none runs; without a key, to a new hub of its own. `makeHub` receives what the hub
    /// must call, with itself, once it ends.
    package func join<Hub: SharedObservationHub>(
        _ member: ObservationMembers<Hub.Value>.Member, sharing key: (any Hashable & Sendable)?,
        makeHub: (_ onEnd: @escaping @Sendable (AnyObject) -> Void) -> Hub
    ) -> (hub: Hub, id: UInt64) {
        guard let key else {
            let hub = makeHub({ _ in })
            return (hub, hub.join(member)!)  // a hub no one joined yet has not ended
        }
        let hubKey = Key(hubType: ObjectIdentifier(Hub.self), key: AnyHashable(key))
        while true {
            let hub = hubs.withLock { hubs in
                if let hub = hubs[hubKey] as? Hub { return hub }
                let hub = makeHub({ [weak self] hub in self?.forget(hub, of: hubKey) })
                hubs[hubKey] = hub
                return hub
            }
            // Joined outside the lock: joining may end the hub (the database closed), which forgets it.
            if let id = hub.join(member) { return (hub, id) }
            forget(hub, of: hubKey)  // it ended: the next turn makes a new one
        }
    }

    /// Forgets `hub`, which ended, unless a new hub of `key` replaced it already.
    private func forget(_ hub: AnyObject, of key: Key) {
        hubs.withLock { hubs in
            if hubs[key] === hub { hubs[key] = nil }
        }
    }

    /// The number of hubs running (for tests).
    package var count: Int { hubs.withLock { $0.count } }
}
