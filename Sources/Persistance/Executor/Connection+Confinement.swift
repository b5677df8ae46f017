import Foundation

extension Connection {
    /// Confines the connection to the calling thread: from then on, running SQL or asking
    /// for the raw handle from any other thread throws `DatabaseError.Kind.connectionEscaped`.
    ///
    /// The executor runs every block of a connection on the thread that owns it, so a use
    /// from another thread means the connection escaped its block.
    func confineToCurrentThread() {
        confinedThread = pthread_self()
    }

    /// Throws `connectionEscaped` when the connection is confined to another thread.
    @inlinable @inline(__always)
    func checkAccess() throws {
        if let owner = confinedThread, pthread_equal(owner, pthread_self()) == 0 { throw escaped() }
    }

    @usableFromInline
    func escaped() -> DatabaseError {
        DatabaseError(
            kind: .connectionEscaped, message: "a connection lent to a read or write block was used outside that block")
    }
}
