import Logging
import CoreMetrics

/// What a `Database` reports about the blocks it runs: metrics (see `DatabaseMetrics`),
/// failures logged at `error` with SQLite's codes, and spans to its ``DatabaseTracer``.
///
/// The executor calls it once per block: `submitted()` when the block is queued, and
/// `measure` around the block on its pool thread. Without a metrics backend it reads no
/// clock and records nothing; the logger is asked for its level only when a block throws.
final class DatabaseInstrumentation: Sendable {
    private let logger: Logger
    private let metrics: DatabaseMetrics?
    private let tracer: (any DatabaseTracer)?
    /// Whether `tracer` is set: checked first, so an untraced block never copies the
    /// existential (about 300 instructions a block).
    private let isTraced: Bool
    private let database: String

    init(configuration: DatabaseConfiguration) {
        var logger = configuration.logger
        logger[metadataKey: "database"] = "\(configuration.name)"
        self.logger = logger
        metrics = DatabaseMetrics(database: configuration.name, factory: configuration.metricsFactory)
        tracer = configuration.tracer
        isTraced = configuration.tracer != nil
        database = configuration.name
    }

    /// The tracer of a block of `access` being submitted, if the database has a tracer.
    func transactionTracer(for access: Access) -> (any DatabaseTransactionTracer)? {
        guard isTraced else { return nil }
        return tracer?.transactionTracer(for: access == .read ? .read : .write, database: database)
    }

    /// The time a block is queued, or 0 when nothing is measured.
    func submitted() -> UInt64 {
        metrics == nil ? 0 : DatabaseMetrics.now
    }

    /// Runs `block` (one read or write, its transaction included) on `connection`, recording
    /// its wait and run times and its commit, or its rollback and failure, and reporting it
    /// and its statements to `transactionTracer`, if any.
    func measure<T>(
        _ access: Access, submittedAt submitted: UInt64, tracedBy transactionTracer: (any DatabaseTransactionTracer)?,
        on connection: Connection, _ block: () throws -> T
    ) throws -> T {
        guard let transactionTracer else { return try measure(access, submittedAt: submitted, block) }
        return try StatementTracer.tracing(transactionTracer, on: connection) {
            try measure(access, submittedAt: submitted, block)
        }
    }

    private func measure<T>(_ access: Access, submittedAt submitted: UInt64, _ block: () throws -> T) throws -> T {
        let started = metrics == nil ? 0 : DatabaseMetrics.now
        do {
            let value = try block()
            metrics?.recordBlock(access, submitted: submitted, started: started, finished: DatabaseMetrics.now)
            return value
        } catch {
            recordFailure(error, access)
            throw error
        }
    }

    private func recordFailure(_ error: any Error, _ access: Access) {
        let kind: String
        switch error {
        case let error as DatabaseError: kind = error.kind.rawValue
        case is CancellationError: kind = "cancelled"
        default: kind = "other"
        }
        metrics?.recordFailure(access, kind: kind)
        if let error = error as? DatabaseError, logger.logLevel <= .error {
            logger.error("\(access == .read ? "read" : "write") failed", metadata: Self.metadata(of: error))
        }
    }

    /// The fields of `error` as log metadata: kind, SQLite's codes, message and SQL (never values).
    static func metadata(of error: DatabaseError) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["error_kind": "\(error.kind)", "error_message": "\(error.message)"]
        if let code = error.extendedResultCode {
            metadata["sqlite_code"] = "\(code.primary.rawValue)"
            metadata["sqlite_extended_code"] = "\(code.rawValue)"
        }
        if let sql = error.sql { metadata["sql"] = "\(sql)" }
        if let column = error.column { metadata["column"] = "\(column)" }
        return metadata
    }
}
