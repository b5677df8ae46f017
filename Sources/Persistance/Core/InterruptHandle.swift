import Foundation
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// A thread-safe way to interrupt whatever a connection is running, from any thread or task
/// (`sqlite3_interrupt`). The running statement fails with `ResultCode.interrupt`.
/// Interrupting a closed connection does nothing.
public final class InterruptHandle: @unchecked Sendable {
    // Guarded by `lock`: the connection clears it on close, so it is never used after `sqlite3_close`.
    private var handle: OpaquePointer?
    private let lock = NSLock()

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    /// Interrupts the connection's running statement, if any.
    public func interrupt() {
        lock.withLock {
            if let handle { sqlite3_interrupt(handle) }
        }
    }

    func invalidate() {
        lock.withLock { handle = nil }
    }
}
