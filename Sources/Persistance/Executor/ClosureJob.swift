/// Work for a pool thread given as two closures: for the library's own housekeeping on a
/// connection (installing hooks, polling), outside any transaction.
final class ClosureJob: PoolJob {
    private let work: @Sendable (Connection) -> Void
    private let failure: @Sendable (any Error) -> Void

    /// A job that runs `run` with the pool thread's connection, or calls `fail` if it never runs.
    init(run: @escaping @Sendable (Connection) -> Void, fail: @escaping @Sendable (any Error) -> Void) {
        work = run
        failure = fail
    }

    func run(on connection: Connection, beforeWaking becomeIdle: () -> Void) {
        work(connection)
        becomeIdle()
    }

    func fail(_ error: any Error) {
        failure(error)
    }
}
