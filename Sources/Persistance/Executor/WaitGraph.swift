/// The synchronous waits between databases of the process: which pool each blocked pool
/// thread waits for. A synchronous call (`readSync`, `writeSync`) from inside a block of one
/// database on another database blocks a thread of the first; when the second's block then
/// waits for the first (directly or through others), neither can ever go on. The graph
/// sees that cycle when its last wait would start, and that call throws
/// `DatabaseError.Kind.deadlock` instead of blocking.
///
/// A pool is stuck when all of its threads (its capacity, opened or not) are blocked in
/// such waits, each on a pool that is stuck itself: the writer with its one thread, a
/// reader pool only once every reader waits. Waits from threads that belong to no database
/// (your own threads and tasks) are not in the graph: nothing waits for them.
final class WaitGraph: Sendable {
    /// The graph of the process.
    static let shared = WaitGraph()

    /// The blocked threads of one pool, by the pool each waits for.
    private struct Waits: Sendable {
        let capacity: Int
        var targets: [ObjectIdentifier] = []
    }

    private let waits = Guarded([ObjectIdentifier: Waits]())

    /// A wait that `beginWait` recorded, for `endWait`.
    struct Wait {
        fileprivate let waiter: ObjectIdentifier
        fileprivate let target: ObjectIdentifier
    }

    /// Records that the calling thread, a thread of `waiter`, is about to block until
    /// `target` runs its work.
    /// - Throws: `DatabaseError.Kind.deadlock` when `target` could never run it because it
    ///   waits, directly or through other pools, for `waiter`'s blocked threads.
    func beginWait(by waiter: ConnectionPool, on target: ConnectionPool) throws -> Wait {
        let wait = Wait(waiter: ObjectIdentifier(waiter), target: ObjectIdentifier(target))
        try waits.withLock { waits in
            waits[wait.waiter, default: Waits(capacity: waiter.capacity)].targets.append(wait.target)
            var path = Set<ObjectIdentifier>()
            if Self.isStuck(wait.target, in: waits, path: &path) {
                Self.remove(wait, from: &waits)
                throw DatabaseError.deadlock(waiter: waiter.threadName, target: target.threadName)
            }
        }
        return wait
    }

    /// Records that the wait `beginWait` returned has ended.
    func endWait(_ wait: Wait) {
        waits.withLock { waits in Self.remove(wait, from: &waits) }
    }

    /// Whether `pool` can never run more work: every one of its threads waits for a stuck pool.
    /// A pool met again along the path counts as stuck: that is the cycle.
    private static func isStuck(
        _ pool: ObjectIdentifier, in waits: [ObjectIdentifier: Waits], path: inout Set<ObjectIdentifier>
    ) -> Bool {
        guard let node = waits[pool], node.targets.count >= node.capacity else { return false }
        guard path.insert(pool).inserted else { return true }
        defer { path.remove(pool) }
        return node.targets.allSatisfy { isStuck($0, in: waits, path: &path) }
    }

    private static func remove(_ wait: Wait, from waits: inout [ObjectIdentifier: Waits]) {
        guard var node = waits[wait.waiter], let index = node.targets.firstIndex(of: wait.target) else { return }
        node.targets.remove(at: index)
        waits[wait.waiter] = node.targets.isEmpty ? nil : node
    }
}
