import Foundation

extension Connection {
    /// Confines the connection to the calling thread: from then on, running SQL or asking
    /// for the raw handle from any other thread throws `DatabaseError.Kind.connectionEscaped`.
    ///
    /// The executor runs every block of a connection on the thread that owns it, so a use
    /// from another thread means the connection escaped its block. A confined connection
    /// also belongs to its confiner: `close()` refuses it, and only the executor closes it
    /// (with `closeHandle()`).
    func confineToCurrentThread() {
        confinedThread = pthread_self()
    }

    /// Runs `body` with the connection confined to the calling thread, then confines it
    /// again to the thread that held it before: how a pool lends its idle thread's
    /// connection to a synchronous caller (see `ConnectionPool.runOnCallingThread`). The
    /// owner that lends it does not use it meanwhile.
    func whileConfinedToCurrentThread(_ body: () throws -> Void) rethrows {
        let owner = confinedThread
        confinedThread = pthread_self()
        defer { confinedThread = owner }
        try body()
    }
}
