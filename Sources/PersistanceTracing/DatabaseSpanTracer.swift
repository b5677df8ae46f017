import Persistance
import Tracing

/// A `DatabaseTracer` (of Persistance) that reports spans through swift-distributed-tracing:
/// one span for each read or write block (its transaction), and under it one span for each
/// statement the block runs, named and attributed by OpenTelemetry's database conventions
/// (see <doc:TracingDatabases>).
///
/// Set it with `DatabaseConfiguration.enableTracing(with:)`. A transaction's span
/// is a child of the span of the task that submits the block (its task-local `ServiceContext`,
/// when the block is submitted); a block submitted outside any span starts a trace of its own.
public struct DatabaseSpanTracer: DatabaseTracer {
    private let tracer: (any Tracer)?

    /// A tracer that starts its spans with `tracer`, or, when nil, with the tracer bootstrapped
    /// in `InstrumentationSystem` at the time each block is submitted.
    public init(tracer: (any Tracer)? = nil) {
        self.tracer = tracer
    }

    /// The spans of one block submitted now: nil, tracing nothing, when no tracer is set and
    /// none was bootstrapped.
    public func transactionTracer(
        for kind: DatabaseTransactionKind, database: String
    ) -> (any DatabaseTransactionTracer)? {
        let tracer = tracer ?? InstrumentationSystem.tracer
        if tracer is NoOpTracer { return nil }
        return TransactionSpans(
            tracer: tracer, parent: ServiceContext.current ?? .topLevel, kind: kind, database: database)
    }
}

extension DatabaseConfiguration {
    /// Traces the database's blocks and statements as spans of `tracer`, or, when nil, of the
    /// tracer bootstrapped in `InstrumentationSystem` (see ``DatabaseSpanTracer``). Tracing is
    /// off until this is called.
    public mutating func enableTracing(with tracer: (any Tracer)? = nil) {
        self.tracer = DatabaseSpanTracer(tracer: tracer)
    }
}
