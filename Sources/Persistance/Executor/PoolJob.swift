/// Work queued on a connection pool: run on one of its threads with that thread's
/// connection, or failed without running.
protocol PoolJob: AnyObject, Sendable {
    /// Runs the work on the calling pool thread, with that thread's connection. Calls
    /// `becomeIdle` once the work is done and before waking whoever waits for it, so that
    /// the waiter's next job finds the thread counted as idle rather than opening another.
    func run(on connection: Connection, beforeWaking becomeIdle: () -> Void)
    /// Reports that the work will never run, and why.
    func fail(_ error: any Error)
}
