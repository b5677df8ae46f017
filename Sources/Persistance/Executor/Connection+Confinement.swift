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
}
