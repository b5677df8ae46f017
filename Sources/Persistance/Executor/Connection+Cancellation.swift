#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

extension Connection {
    /// Runs `body`, interrupting each statement it runs once `job` is cancelled.
    ///
    /// `InterruptHandle.interrupt()` only stops a statement that is running when it is
    /// called; one that starts later runs on. While `body` runs, SQLite's progress handler
    /// asks the job every few thousand virtual-machine steps and stops the statement (with
    /// `ResultCode.interrupt`) once it is cancelled, so a cancelled task's long statement
    /// stops even when its cancellation came between two statements. The job is the
    /// handler's context, so nothing is allocated.
    func interruptingStatements(whenCancelled job: AsyncJob, _ body: () throws -> Void) throws {
        let handle = try sqliteHandle()
        try withExtendedLifetime(job) {
            sqlite3_progress_handler(
                handle, 4096,
                { context in
                    guard let context else { return 0 }
                    return Unmanaged<AsyncJob>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
                },
                Unmanaged.passUnretained(job).toOpaque())
            defer { sqlite3_progress_handler(handle, 0, nil, nil) }
            try body()
        }
    }
}
