import CoreMetrics
import Dispatch

/// The metrics of one database, made once when it opens so that recording allocates nothing:
///
/// | label | type | dimensions |
/// |---|---|---|
/// | `persistance.block.wait` | timer | `database`, `access` (`read`/`write`): time queued before a block started |
/// | `persistance.block.run` | timer | `database`, `access`: time the block ran, its transaction included |
/// | `persistance.commits` | counter | `database`: write blocks committed |
/// | `persistance.rollbacks` | counter | `database`: write blocks rolled back (thrown, cancelled, failed commit) |
/// | `persistance.errors` | counter | `database`, `access`, `kind`: blocks that threw, by `DatabaseError.Kind` (`cancelled`, `other` for errors of other types) |
final class DatabaseMetrics: Sendable {
    private let database: String
    private let factory: any MetricsFactory
    private let readWait: Timer
    private let writeWait: Timer
    private let readRun: Timer
    private let writeRun: Timer
    private let commits: Counter
    private let rollbacks: Counter

    /// The metrics of the database named `database`, from `factory`; nil when there is no
    /// factory and no metrics backend was bootstrapped, so nothing is measured at all.
    init?(database: String, factory: (any MetricsFactory)?) {
        guard let factory = factory ?? Self.bootstrappedFactory else { return nil }
        self.database = database
        self.factory = factory
        func timer(_ label: String, _ access: String) -> Timer {
            Timer(label: label, dimensions: [("database", database), ("access", access)], factory: factory)
        }
        readWait = timer("persistance.block.wait", "read")
        writeWait = timer("persistance.block.wait", "write")
        readRun = timer("persistance.block.run", "read")
        writeRun = timer("persistance.block.run", "write")
        commits = Counter(label: "persistance.commits", dimensions: [("database", database)], factory: factory)
        rollbacks = Counter(label: "persistance.rollbacks", dimensions: [("database", database)], factory: factory)
    }

    /// The factory of `MetricsSystem`, unless none was bootstrapped.
    private static var bootstrappedFactory: (any MetricsFactory)? {
        let factory = MetricsSystem.factory
        return factory is NOOPMetricsHandler ? nil : factory
    }

    /// The current time in nanoseconds, for the timers.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Records a block that waited from `submitted` to `started` and ran until `finished`.
    func recordBlock(_ access: Access, submitted: UInt64, started: UInt64, finished: UInt64) {
        let (wait, run) = access == .read ? (readWait, readRun) : (writeWait, writeRun)
        wait.recordNanoseconds(Int64(clamping: started &- submitted))
        run.recordNanoseconds(Int64(clamping: finished &- started))
        if access == .write { commits.increment() }
    }

    /// Records a block that threw `error`.
    func recordFailure(_ access: Access, kind: String) {
        if access == .write { rollbacks.increment() }
        Counter(
            label: "persistance.errors",
            dimensions: [("database", database), ("access", access == .read ? "read" : "write"), ("kind", kind)],
            factory: factory
        ).increment()
    }
}
