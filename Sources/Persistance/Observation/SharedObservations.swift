/// The value observations of one database that share their fetches, by sharing key and
/// value type: an observation made with a key joins the running hub of that key, if any.
final class SharedObservations: Sendable {
    /// A sharing key and the value type it observes.
    private struct Key: Hashable, @unchecked Sendable {
        // @unchecked: `key` wraps a value that `observe(sharing:_:)` requires to be Sendable.
        let valueType: ObjectIdentifier
        let key: AnyHashable
    }

    private let hubs = Guarded<[Key: any AnyObject & Sendable]>([:])

    /// Joins `member` to the hub of `key` and `Value`, making one (with `fetch`) when none
    /// runs; without a key, to a hub of its own.
    func join<Value: Sendable>(
        _ member: ObservationHub<Value>.Member, sharing key: (any Hashable & Sendable)?, database: Database,
        fetch: @escaping @Sendable (Connection) throws -> Value
    ) -> (hub: ObservationHub<Value>, id: UInt64) {
        guard let key else {
            let hub = ObservationHub(database: database, fetch: fetch, onEnd: { _ in })
            return (hub, hub.join(member)!)
        }
        let hubKey = Key(valueType: ObjectIdentifier(Value.self), key: AnyHashable(key))
        while true {
            let hub = hubs.withLock { hubs in
                if let hub = hubs[hubKey] as? ObservationHub<Value> { return hub }
                let hub = ObservationHub(
                    database: database, fetch: fetch, onEnd: { [weak self] hub in self?.forget(hub, of: hubKey) })
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
    var count: Int { hubs.withLock { $0.count } }
}
