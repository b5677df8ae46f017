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
}
