#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

extension Connection {
    /// Runs `body`, interrupting each statement it runs once `isCancelled` returns true.
    ///
    /// `InterruptHandle.interrupt()` only stops a statement that is running when it is
    /// called; one that starts later runs on. While `body` runs, SQLite's progress handler
    /// asks `isCancelled` every few thousand virtual-machine steps and stops the statement
    /// (with `ResultCode.interrupt`) once it answers true, so a cancelled task's long
    /// statement stops even when its cancellation came between two statements.
    func interruptingStatements<T>(when isCancelled: () -> Bool, _ body: () throws -> T) throws -> T {
        let handle = try sqliteHandle()
        return try withoutActuallyEscaping(isCancelled) { isCancelled in
            let check = CancellationCheck(isCancelled)
            return try withExtendedLifetime(check) {
                sqlite3_progress_handler(
                    handle, 4096,
                    { context in
                        guard let context else { return 0 }
                        return Unmanaged<CancellationCheck>.fromOpaque(context).takeUnretainedValue().isCancelled() ? 1 : 0
                    },
                    Unmanaged.passUnretained(check).toOpaque())
                defer { sqlite3_progress_handler(handle, 0, nil, nil) }
                return try body()
            }
        }
    }
}

/// What the progress handler's context points to, while `interruptingStatements` runs.
private final class CancellationCheck {
    let isCancelled: () -> Bool

    init(_ isCancelled: @escaping () -> Bool) {
        self.isCancelled = isCancelled
    }
}
