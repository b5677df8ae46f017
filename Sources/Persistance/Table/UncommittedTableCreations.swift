import Synchronization

/// The connections on which a table created itself inside a transaction, with that
/// transaction. A rollback (of the transaction or of a savepoint in it) removes the table but
/// not the statements the connection cached for it, and such a statement only finds the table
/// missing when it runs, after the operation has started consuming its records. So while the
/// creating transaction lasts, and once after it, operations check that the table is there
/// first and create it again if not.
///
/// Checking costs one atomic load while no creation is pending, which is nearly always.
final class UncommittedTableCreations: Sendable {
    private let pendingCount = Atomic<Int>(0)
    /// The serial of the creating transaction, by connection.
    private let creations = Guarded<[ObjectIdentifier: UInt64]>([:])

    /// Whether the table must be checked before an operation on `connection`; stops asking
    /// once the creating transaction has ended (checked one last time).
    @inline(__always)
    func needsCheck(on connection: Connection) -> Bool {
        guard pendingCount.load(ordering: .acquiring) > 0 else { return false }
        return creations.withLock { creations in
            let key = ObjectIdentifier(connection)
            guard let serial = creations[key] else { return false }
            if !connection.isInTransaction || connection.transactionSerial != serial {
                creations[key] = nil
                pendingCount.subtract(1, ordering: .releasing)
            }
            return true
        }
    }

    /// Notes that the table was created on `connection`, inside its current transaction.
    func insert(_ connection: Connection) {
        creations.withLock { creations in
            if creations.updateValue(connection.transactionSerial, forKey: ObjectIdentifier(connection)) == nil {
                pendingCount.add(1, ordering: .releasing)
            }
        }
    }
}
