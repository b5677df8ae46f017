/// Work queued on a connection pool: run on one of its threads with that thread's
/// connection, or failed without running.
protocol PoolJob: AnyObject, Sendable {
    /// Runs the work on the calling pool thread, with that thread's connection.
    func run(on connection: Connection)
    /// Reports that the work will never run, and why.
    func fail(_ error: any Error)
}
