#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

extension Connection {
    /// Makes the connection's statements stop once the asynchronous job running them is
    /// cancelled. Called once, by the pool thread that owns the connection.
    ///
    /// `InterruptHandle.interrupt()` only stops a statement that is running when it is
    /// called; one that starts later runs on. So SQLite's progress handler asks the running
    /// job (`cancellableJob`, set by `interruptingStatements`) every few thousand
    /// virtual-machine steps, and stops the statement (with `ResultCode.interrupt`) once it
    /// is cancelled: a cancelled task's long statement stops even when its cancellation came
    /// between two statements. Installed once rather than around each job, it costs a job
    /// nothing but setting `cancellableJob`; the connection is the handler's context, alive
    /// while any of its statements runs.
    func installCancellationCheck() throws {
        sqlite3_progress_handler(
            try sqliteHandle(), 4096,
            { context in
                guard let context else { return 0 }
                let job = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue().cancellableJob
                return job?.isCancelled == true ? 1 : 0
            },
            Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `body`, interrupting each statement it runs once `job` is cancelled (see
    /// `installCancellationCheck`).
    func interruptingStatements(whenCancelled job: AsyncJob, _ body: () throws -> Void) rethrows {
        cancellableJob = job
        defer { cancellableJob = nil }
        try body()
    }
}
